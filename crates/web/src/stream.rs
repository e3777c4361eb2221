//! Server-sent events from a search thread: a channel the search writes [`Event`]s to, and a
//! stream over it that stops the search when the client goes away.

use axum::response::sse::{Event, KeepAlive, KeepAliveStream, Sse};
use ply_web_api::Sink;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::sync::mpsc;
use tokio_stream::Stream;

/// Events buffered between a search and a slow client; progress beyond it is dropped.
const BUFFER: usize = 64;

/// The search's end of an event stream.
pub struct EventSender {
    tx: mpsc::Sender<Event>,
}

/// A progress event is dropped when the client is behind; the last one waits for room (it is
/// sent from the search thread, never from the runtime).
impl Sink for EventSender {
    fn progress(&self, name: &str, data: &serde_json::Value) -> bool {
        match self.tx.try_send(event(name, data)) {
            Ok(()) | Err(mpsc::error::TrySendError::Full(_)) => true,
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    fn last(&self, name: &str, data: &serde_json::Value) {
        let _ = self.tx.blocking_send(event(name, data));
    }

    fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

fn event(name: &str, data: &serde_json::Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// The client's end: the events, and a function run when the stream is dropped (the client
/// disconnected or the response ended), which stops the search.
pub struct EventStream {
    rx: mpsc::Receiver<Event>,
    on_drop: Option<Box<dyn FnOnce() + Send>>,
}

impl Stream for EventStream {
    type Item = Result<Event, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.rx.poll_recv(cx).map(|e| e.map(Ok))
    }
}

impl Drop for EventStream {
    fn drop(&mut self) {
        if let Some(stop) = self.on_drop.take() {
            stop();
        }
    }
}

/// A connected pair; `stop` runs when the client's end is dropped.
pub fn channel(stop: impl FnOnce() + Send + 'static) -> (EventSender, EventStream) {
    let (tx, rx) = mpsc::channel(BUFFER);
    (
        EventSender { tx },
        EventStream {
            rx,
            on_drop: Some(Box::new(stop)),
        },
    )
}

/// An SSE response: events with keep-alive comments between them.
pub type EventResponse = Sse<KeepAliveStream<EventStream>>;

/// The SSE response over `stream`, with keep-alive comments.
pub fn response(stream: EventStream) -> EventResponse {
    Sse::new(stream).keep_alive(KeepAlive::default())
}

// chess page: to come

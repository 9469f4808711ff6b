"""HTTP and WebSocket routes, the pages and the browser's static files: the only floor that
speaks HTTP."""

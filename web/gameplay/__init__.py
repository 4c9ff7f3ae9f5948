"""The gameplay app's pages, API views, URLs and admin: the top layer."""

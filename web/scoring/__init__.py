"""The scoring app's pages, API views, URLs and admin: the top layer."""

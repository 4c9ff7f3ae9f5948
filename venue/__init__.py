"""The venue kit: exporting a tournament as one self-describing document, importing it into
another installation, and the backups the worker writes while a round runs."""

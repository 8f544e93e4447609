"""Settings."""

HOST = "127.0.0.1"
PORT = 8000
DEBUG = True
WORKERS = 2

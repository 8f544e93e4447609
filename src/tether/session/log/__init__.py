"""The session log: its events, the file they go to, where logs live and how they are read back."""

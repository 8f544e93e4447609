"""Rewind, undo, redo and fork: plans read from the log's checkpoints, restores recorded in it."""

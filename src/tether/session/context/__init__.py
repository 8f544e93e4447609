"""What the model is sent: the history, compaction, the budget, the system prompt and its parts."""

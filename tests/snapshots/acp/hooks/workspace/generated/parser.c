made

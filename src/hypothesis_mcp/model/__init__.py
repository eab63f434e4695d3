"""What the run knows of the server: tool profiles (guesses with their evidence), facts shown by
calls or guessed, and the calibration experiments that turn guesses into facts."""

"""Study, before and after playing: first-game lessons (``lessons``) and replays of
finished games (``replays``). Neither changes a game nor counts for anything."""

"""The screen's words in English: one string (a line a message, "|" between the forms that
fit fewer characters), so the Pico holds one object, not a dict of tuples (the indices in __init__.py)."""

WORDS = """White|Black
%s to move
%s in check|%s: check
%s wins
Draw
no clock
%s: %s missing|%s %s missing|%s: no %s
%s: remove piece|%s: remove
%s: wrong square
Board differs:
Wrong placement:
+%d more
Promote: %s|Promote %s|= %s
Tile: %s
Place a %s|Place %s
Engine %d thinking|Engine %d: ...
vs engine %d
vs computer
%s offers draw|%s: draw?
Draw claimable
Diagnostics
|pawn|knight|bishop|rook|queen|king
checkmate|stalemate|no mating force|50 moves|75 moves|repetition|5x repetition|resignation|agreement|time forfeit|abandoned
Menu  ok: change|Menu
ok again: new|ok: new game?
New game|Puzzle|Clock|Vs|Hints|Aid|Light|Lang|USB
on|off|n/a|person|computer|engine
Play: %s|Play %s
Puzzle %d|Puz %d
Wrong: undone|Wrong move
Solved|Solved
Not solved|Failed
Right %d/%d|%d/%d
Record not saved|Not saved"""

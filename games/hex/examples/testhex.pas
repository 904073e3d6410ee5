{ Example Hex contestant in Pascal, written against HexLib as in the IOI 1997 task.

  Strategy: for every empty cell, the cost of my cheapest chain from column 1 to
  column N through it plus the opponent's cheapest chain from row 1 to row N through
  it (own stones cost 0, empty cells 1); play the cell that matters most to both.

  Build:  fpc -Fu../lib testhex.pas }
program testhex;

uses hexlib, SysUtils;

const
  MaxN = 22;
  Infinite = 1000000;
  StepR: array[0..5] of integer = (-1, -1, 0, 0, 1, 1);
  StepC: array[0..5] of integer = (0, 1, -1, 1, -1, 0);

type
  TDist = array[0..MaxN, 0..MaxN] of longint;

var
  n: integer;

{ Cheapest cost from one of who's edges to every cell: relax until nothing changes. }
procedure Distances(who: integer; firstEdge: boolean; var dist: TDist);
var
  r, c, d, k, v, nr, nc, edge: integer;
  cost: longint;
  changed: boolean;
begin
  for r := 0 to MaxN do
    for c := 0 to MaxN do
      dist[r, c] := Infinite;
  if firstEdge then edge := 1 else edge := n;
  for k := 1 to n do
  begin
    if who = 1 then begin r := k; c := edge; end else begin r := edge; c := k; end;
    v := LookAtBoard(r, c);
    if v = who then dist[r, c] := 0
    else if v = 0 then dist[r, c] := 1;
  end;
  repeat
    changed := false;
    for r := 1 to n do
      for c := 1 to n do
        if dist[r, c] < Infinite then
          for d := 0 to 5 do
          begin
            nr := r + StepR[d];
            nc := c + StepC[d];
            v := LookAtBoard(nr, nc);
            if (v = -1) or (v = 3 - who) then
              Continue;
            if v = who then cost := dist[r, c] else cost := dist[r, c] + 1;
            if cost < dist[nr, nc] then
            begin
              dist[nr, nc] := cost;
              changed := true;
            end;
          end;
  until not changed;
end;

procedure Choose(var bestR, bestC: integer);
var
  a1, b1, a2, b2: TDist;
  r, c: integer;
  score, best, centre, bestCentre: longint;
begin
  Distances(1, true, a1);
  Distances(1, false, b1);
  Distances(2, true, a2);
  Distances(2, false, b2);
  best := 4 * Infinite;
  bestCentre := Infinite;
  for r := 1 to n do
    for c := 1 to n do
      if LookAtBoard(r, c) = 0 then
      begin
        score := a1[r, c] + b1[r, c] + a2[r, c] + b2[r, c];
        centre := abs(2 * r - n - 1) + abs(2 * c - n - 1);
        if (score < best) or ((score = best) and (centre < bestCentre)) then
        begin
          best := score;
          bestCentre := centre;
          bestR := r;
          bestC := c;
        end;
      end;
end;

var
  r, c: integer;
begin
  n := GetMax;
  r := 1;
  c := 1;
  while GameIsOver = 0 do
  begin
    Choose(r, c);
    Debug('mark ' + Chr(Ord('a') + c - 1) + IntToStr(r) + ' green best');  { drawn by the arena }
    PutHex(r, c);
    if GameIsOver <> 0 then
      Break;
    MakeLibMove;
  end;
end.

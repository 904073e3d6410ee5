{ A HexLib program in Pascal for the annotation tests: plays the first free cell, row by
  row, and marks it with Debug first ('mark c3 blue first'). }
program first_free;
uses hexlib, sysutils;
var n, r, c: integer; done: boolean;
begin
  n := GetMax;
  while GameIsOver = 0 do begin
    done := false;
    for r := 1 to n do
      for c := 1 to n do
        if (not done) and (LookAtBoard(r, c) = 0) then begin
          Debug('mark ' + chr(ord('a') + c - 1) + IntToStr(r) + ' blue first');
          PutHex(r, c);
          done := true;
        end;
    if GameIsOver <> 0 then break;
    MakeLibMove;
  end;
end.

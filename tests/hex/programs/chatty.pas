{ A HexLib (Pascal) program that WriteLns, as contest programs might; checks GetRow/GetColumn. }
program chatty;

uses hexlib;

var
  n, r, c: integer;
  placed: boolean;
begin
  n := GetMax;
  WriteLn('chatty Pascal plays side ', GetPlayer, ' on ', n);
  while GameIsOver = 0 do
  begin
    placed := false;
    for c := 1 to n do
      for r := 1 to n do
        if (not placed) and (LookAtBoard(r, c) = 0) then
        begin
          WriteLn('put ', r, ' ', c);
          PutHex(r, c);
          placed := true;
        end;
    if GameIsOver <> 0 then
      Break;
    MakeLibMove;
    if (GameIsOver = 0) and (LookAtBoard(GetRow, GetColumn) <> 2) then
      Halt(7);
  end;
  WriteLn('chatty Pascal sees GameIsOver ', GameIsOver);
end.

{ HexLib for (Free) Pascal: the IOI 1997 Hex library's calls over the arena's line
  protocol (see PROTOCOL.md).  Put this unit next to your program, add "uses hexlib;"
  and build with:  fpc myhex.pas

  You are always player 1: your stones are 1 and you connect column 1 with column N.
  When the arena seats you as player 2 it shows you the board transposed with the
  colours swapped, so the same program plays either side (GetPlayer tells which); the
  opponent has then already moved when your program starts.

  Standard output belongs to the protocol: on Unix the unit moves it aside on the
  first call, so your own WriteLn goes to standard error (the arena's debug panel). }
unit hexlib;

{$mode objfpc}{$H+}

interface

function GetMax: integer;                       { the board size N }
function LookAtBoard(row, column: integer): integer;  { -1 off, 0 empty, 1 yours, 2 theirs }
procedure PutHex(row, column: integer);         { place your stone if the cell is free }
function GameIsOver: integer;                   { 0 running, 1 full, 2 you won, 3 they won }
procedure MakeLibMove;                          { end your turn; returns after the opponent moved }
function GetRow: integer;                       { the opponent's last row, -1 before its first }
function GetColumn: integer;                    { the opponent's last column, -1 before its first }
function GetPlayer: integer;                    { 1 or 2: the side the arena seated you on }
procedure Debug(const command: string);        { an annotation on the arena's board: Debug('mark c3 red') }

implementation

{$IFDEF UNIX}
uses BaseUnix;
{$ENDIF}

const
  HexMax = 20;

var
  Started: boolean = false;
  Size: integer = 0;
  Player: integer = 1;
  LastRow: integer = -1;
  LastCol: integer = -1;
  Status: integer = 0;
  Board: array[0..HexMax + 1, 0..HexMax + 1] of integer;
  Line: string;
{$IFDEF UNIX}
  ProtocolFd: cint = 1;
{$ENDIF}

procedure SendLine(const text: string);
var
  data: string;
begin
{$IFDEF UNIX}
  data := text + #10;
  fpWrite(ProtocolFd, data[1], Length(data));
{$ELSE}
  data := text;
  WriteLn(Output, data);
  Flush(Output);
{$ENDIF}
end;

{ Read one arena line; the arena going away ends the program quietly. }
procedure ReadArena;
begin
  Flush(Output);
  if EOF(Input) then
    Halt(0);
  ReadLn(Input, Line);
end;

{ The n-th space-separated word of Line (1-based), or ''. }
function WordOf(n: integer): string;
var
  i, count: integer;
begin
  Result := '';
  count := 0;
  i := 1;
  while i <= Length(Line) do
  begin
    while (i <= Length(Line)) and (Line[i] = ' ') do
      Inc(i);
    if i > Length(Line) then
      Break;
    Inc(count);
    Result := '';
    while (i <= Length(Line)) and (Line[i] <> ' ') do
    begin
      Result := Result + Line[i];
      Inc(i);
    end;
    if count = n then
      Exit;
  end;
  Result := '';
end;

function NumberOf(n: integer): integer;
var
  code: integer;
begin
  Val(WordOf(n), Result, code);
  if code <> 0 then
    Result := 0;
end;

procedure ReadRows;
var
  r, c: integer;
begin
  FillChar(Board, SizeOf(Board), 0);
  for r := 1 to Size do
  begin
    ReadArena;
    for c := 1 to Size do
      if (c <= Length(Line)) and (Line[c] = '1') then
        Board[r, c] := 1
      else if (c <= Length(Line)) and (Line[c] = '2') then
        Board[r, c] := 2;
  end;
end;

{ Apply the arena message in Line; return its first word. }
function Handle: string;
var
  r, c: integer;
begin
  Result := WordOf(1);
  if Result = 'move' then
  begin
    r := NumberOf(2);
    c := NumberOf(3);
    if (r >= 1) and (r <= Size) and (c >= 1) and (c <= Size) then
      Board[r, c] := 2;
    LastRow := r;
    LastCol := c;
  end
  else if Result = 'board' then
    ReadRows
  else if Result = 'end' then
    Status := NumberOf(2);
end;

procedure WaitForTurn;
var
  kind: string;
begin
  repeat
    ReadArena;
    kind := Handle;
  until (kind = 'yourturn') or (kind = 'end');
end;

procedure Start;
begin
  if Started then
    Exit;
  Started := true;
{$IFDEF UNIX}
  Flush(Output);
  ProtocolFd := fpDup(1);
  if ProtocolFd < 0 then
    ProtocolFd := 1
  else
    fpDup2(2, 1);
{$ENDIF}
  repeat
    ReadArena;
  until WordOf(1) = 'start';
  Size := NumberOf(2);
  Player := NumberOf(3);
  if (Size < 1) or (Size > HexMax) then
    Halt(1);
  ReadRows;
  WaitForTurn;
end;

function GetMax: integer;
begin
  Start;
  Result := Size;
end;

function GetPlayer: integer;
begin
  Start;
  Result := Player;
end;

procedure Debug(const command: string);
begin
  Start;
  SendLine('# debug ' + command);
end;

function LookAtBoard(row, column: integer): integer;
begin
  Start;
  if (row < 1) or (row > Size) or (column < 1) or (column > Size) then
    Result := -1
  else
    Result := Board[row, column];
end;

procedure PutHex(row, column: integer);
var
  kind, rs, cs: string;
begin
  Start;
  if Status <> 0 then
    Exit;
  Str(row, rs);
  Str(column, cs);
  SendLine('put ' + rs + ' ' + cs);
  repeat
    ReadArena;
    kind := Handle;
    if kind = 'ok' then
    begin
      Board[row, column] := 1;
      Status := NumberOf(2);
    end;
  until (kind = 'ok') or (kind = 'error') or (kind = 'end');
end;

function GameIsOver: integer;
begin
  Start;
  Result := Status;
end;

procedure MakeLibMove;
begin
  Start;
  if Status <> 0 then
    Exit;
  SendLine('done');
  WaitForTurn;
end;

function GetRow: integer;
begin
  Start;
  Result := LastRow;
end;

function GetColumn: integer;
begin
  Start;
  Result := LastCol;
end;

end.

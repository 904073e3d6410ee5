/* HexLib for C and C++: the IOI 1997 Hex library's calls over the arena's line protocol.
 *
 * Build your program together with hexlib.c:
 *     gcc -O2 -o myhex myhex.c hexlib.c        (C)
 *     g++ -O2 -o myhex myhex.cpp hexlib.c      (C++: the header is extern "C")
 *
 * You are always player 1: your stones are 1 and you connect column 1 with column N.
 * When the arena seats you as player 2 it shows you the board transposed with the
 * colours swapped, so the same program plays either side (GetPlayer tells which);
 * the opponent has then already moved when your program starts.
 *
 * Standard output belongs to the protocol: the library moves it aside on its first
 * call, so printf() goes to standard error (the arena's debug panel shows it).
 */
#ifndef HEXLIB_H
#define HEXLIB_H

#ifdef __cplusplus
extern "C" {
#endif

int  GetMax(void);                       /* the board size N */
int  LookAtBoard(int row, int column);   /* -1 off the board, 0 empty, 1 yours, 2 theirs */
void PutHex(int row, int column);        /* place your stone if the cell is free */
int  GameIsOver(void);                   /* 0 running, 1 board full, 2 you won, 3 they won */
void MakeLibMove(void);                  /* end your turn; returns after the opponent moved */
int  GetRow(void);                       /* the opponent's last row, -1 before its first */
int  GetColumn(void);                    /* the opponent's last column, -1 before its first */
int  GetPlayer(void);                    /* 1 or 2: the side the arena seated you on */
void Debug(const char *command);         /* an annotation drawn on the arena's board, e.g.
                                            Debug("mark c3 red best") (docs/ANNOTATIONS.md) */

#ifdef __cplusplus
}
#endif

#endif

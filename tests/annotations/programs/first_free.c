/* A HexLib program in C for the annotation tests: plays the first free cell, row by row,
   and marks it with Debug() first ("mark c3 red first"). */
#include <stdio.h>
#include "hexlib.h"

int main(void)
{
    int n = GetMax();
    while (!GameIsOver()) {
        int r, c, done = 0;
        for (r = 1; r <= n && !done; r++)
            for (c = 1; c <= n && !done; c++)
                if (LookAtBoard(r, c) == 0) {
                    char command[64];
                    snprintf(command, sizeof command, "mark %c%d red first", 'a' + c - 1, r);
                    Debug(command);
                    PutHex(r, c);
                    done = 1;
                }
        if (GameIsOver())
            break;
        MakeLibMove();
    }
    return 0;
}

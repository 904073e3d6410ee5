/* A HexLib (C) program that printf()s, as contest programs might; checks GetRow/GetColumn. */
#include <stdio.h>
#include "hexlib.h"

int main(void)
{
    int n = GetMax(), r, c, placed;
    printf("chatty C plays side %d on %d, opponent last at %d %d\n",
           GetPlayer(), n, GetRow(), GetColumn());
    while (GameIsOver() == 0) {
        placed = 0;
        for (c = 1; c <= n && !placed; c++)
            for (r = 1; r <= n && !placed; r++)
                if (LookAtBoard(r, c) == 0) {
                    printf("put %d %d\n", r, c);   /* goes to stderr: harmless */
                    PutHex(r, c);
                    placed = 1;
                }
        if (GameIsOver())
            break;
        MakeLibMove();
        if (GameIsOver() == 0 && LookAtBoard(GetRow(), GetColumn()) != 2)
            return 7;                               /* the library lost track */
    }
    printf("chatty C sees GameIsOver %d\n", GameIsOver());
    return 0;
}

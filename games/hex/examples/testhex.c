/* Example Hex contestant in C, written against HexLib as in the IOI 1997 task.
 *
 * Strategy: for every empty cell, the cost of my cheapest chain from column 1 to
 * column N through it plus the opponent's cheapest chain from row 1 to row N through
 * it (own stones cost 0, empty cells 1); play the cell that matters most to both,
 * marked on the arena's board first with Debug() (an annotation).
 *
 * Build:  gcc -O2 -o testhex testhex.c ../lib/hexlib.c -I../lib
 * (it also builds as C++: g++ -x c++ testhex.c ... with hexlib.c compiled as C)
 */
#include <stdio.h>
#include <stdlib.h>
#include "hexlib.h"

#define MAXN 22
#define INF 1000000

static const int STEP_R[6] = {-1, -1, 0, 0, 1, 1};
static const int STEP_C[6] = {0, 1, -1, 1, -1, 0};
static int n;

/* 0-1 breadth-first search from one of `who`'s edges; dist[r][c] = cheapest cost. */
static void distances(int who, int first_edge, int dist[MAXN][MAXN])
{
    static int queue[2 * MAXN * MAXN * 6 + 8][2];
    int head = MAXN * MAXN * 6, tail = head;   /* deque in the middle of the array */
    int r, c, k, d;
    for (r = 0; r < MAXN; r++)
        for (c = 0; c < MAXN; c++)
            dist[r][c] = INF;
    for (k = 1; k <= n; k++) {
        int edge = first_edge ? 1 : n;
        int er = who == 1 ? k : edge, ec = who == 1 ? edge : k;
        int v = LookAtBoard(er, ec), cost;
        if (v == 3 - who)
            continue;
        cost = v == who ? 0 : 1;
        if (cost < dist[er][ec]) {
            dist[er][ec] = cost;
            queue[tail][0] = er;
            queue[tail][1] = ec;
            tail++;
        }
    }
    while (head < tail) {
        r = queue[head][0];
        c = queue[head][1];
        head++;
        for (d = 0; d < 6; d++) {
            int nr = r + STEP_R[d], nc = c + STEP_C[d];
            int v = LookAtBoard(nr, nc), cost;
            if (v == -1 || v == 3 - who)
                continue;
            cost = dist[r][c] + (v == who ? 0 : 1);
            if (cost < dist[nr][nc]) {
                dist[nr][nc] = cost;
                if (v == who) {        /* free step: to the front */
                    head--;
                    queue[head][0] = nr;
                    queue[head][1] = nc;
                } else {
                    queue[tail][0] = nr;
                    queue[tail][1] = nc;
                    tail++;
                }
            }
        }
    }
}

static void choose(int *best_r, int *best_c)
{
    static int a1[MAXN][MAXN], b1[MAXN][MAXN], a2[MAXN][MAXN], b2[MAXN][MAXN];
    int r, c, best = 4 * INF, best_centre = INF;
    distances(1, 1, a1);
    distances(1, 0, b1);
    distances(2, 1, a2);
    distances(2, 0, b2);
    for (r = 1; r <= n; r++)
        for (c = 1; c <= n; c++) {
            int mine, theirs, score, centre;
            if (LookAtBoard(r, c) != 0)
                continue;
            mine = a1[r][c] + b1[r][c];
            theirs = a2[r][c] + b2[r][c];
            score = (mine > INF ? INF : mine) + (theirs > INF ? INF : theirs);
            centre = abs(2 * r - n - 1) + abs(2 * c - n - 1);
            if (score < best || (score == best && centre < best_centre)) {
                best = score;
                best_centre = centre;
                *best_r = r;
                *best_c = c;
            }
        }
}

int main(void)
{
    int r = 1, c = 1;
    n = GetMax();
    while (GameIsOver() == 0) {
        char command[64];
        choose(&r, &c);
        snprintf(command, sizeof command, "mark %c%d green best", 'a' + c - 1, r);
        Debug(command);                       /* an annotation the arena draws */
        PutHex(r, c);
        if (GameIsOver())
            break;
        MakeLibMove();
    }
    return 0;
}

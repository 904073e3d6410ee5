/* A small Tam Quan program in C: reads STATE.INP, writes MOVE.OUT (and DEBUG.OUT: an arrow
   for each member's step, drawn by the arena; docs/ANNOTATIONS.md).
 *
 * Setup: the first free zone, members on its cells nearest the middle of the board.
 * Turn: each member in reading order steps to the empty neighbour nearest to an enemy
 * (a member with no empty neighbour stays).
 *
 *     cc -O2 -o greedy_bot greedy_bot.c && ./greedy_bot   (in the folder of STATE.INP)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 32

static int n, turn, members;
static char me;
static char board[MAXN][MAXN + 1];

static int distance_to_enemy(int r, int c) {
    int best = 1000;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (board[a][b] != '.' && board[a][b] != me) {
                int d = abs(a - r) + abs(b - c);
                if (d < best) best = d;
            }
    return best;
}

int main(void) {
    FILE *in = fopen("STATE.INP", "r");
    FILE *out;
    int zones, dr[4] = {-1, 0, 0, 1}, dc[4] = {0, -1, 1, 0};
    if (!in) return 1;
    if (fscanf(in, "%d %d %c %d", &n, &turn, &me, &members) != 4 || n > MAXN) return 1;
    for (int r = 0; r < n; r++)
        if (fscanf(in, "%32s", board[r]) != 1) return 1;
    if (fscanf(in, "%d", &zones) != 1) return 1;
    out = fopen("MOVE.OUT", "w");
    if (!out) return 1;
    if (zones > 0) {
        int number, count, cells[2 * MAXN * MAXN], used[MAXN * MAXN] = {0};
        double middle = (n - 1) / 2.0;
        if (fscanf(in, "%d %d", &number, &count) != 2) return 1;
        for (int i = 0; i < 2 * count; i++)
            if (fscanf(in, "%d", &cells[i]) != 1) return 1;
        fprintf(out, "%d\n", number);
        for (int k = 0; k < members; k++) {
            int pick = -1;
            double best = 1e9;
            for (int i = 0; i < count; i++) {
                double d = abs(cells[2 * i] - (int)middle) + abs(cells[2 * i + 1] - (int)middle);
                if (!used[i] && d < best) { best = d; pick = i; }
            }
            used[pick] = 1;
            fprintf(out, "%d %d\n", cells[2 * pick], cells[2 * pick + 1]);
        }
    } else {
        int moved[MAXN][MAXN] = {{0}};
        FILE *debug = fopen("DEBUG.OUT", "w");       /* annotations the arena draws */
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int br = r, bc = c, best = 100000;
                if (board[r][c] != me || moved[r][c]) continue;
                for (int k = 0; k < 4; k++) {
                    int a = r + dr[k], b = c + dc[k];
                    if (a < 0 || b < 0 || a >= n || b >= n || board[a][b] != '.') continue;
                    int d = distance_to_enemy(a, b);
                    if (d < best) { best = d; br = a; bc = b; }
                }
                board[r][c] = '.';
                board[br][bc] = me;
                moved[br][bc] = 1;
                fprintf(out, "%d %d %d %d\n", r, c, br, bc);
                if (debug && (br != r || bc != c))
                    fprintf(debug, "arrow %d,%d %d,%d\n", r, c, br, bc);
            }
        if (debug)
            fclose(debug);
    }
    fclose(out);
    fclose(in);
    return 0;
}

// A sample Robot program in C++: reads MAP.INP, writes MOVE.OUT.
// Walks to the nearest cell not of its own colour (breadth-first search).
// Writes DEBUG.OUT too: its target marked and an arrow to its step (docs/ANNOTATIONS.md).
// Build: g++ -O2 -o greedy_bot greedy_bot.cpp
#include <cstdio>
#include <fstream>
#include <queue>
#include <string>
#include <vector>
using namespace std;

int main() {
    ifstream in("MAP.INP");
    int m, n, k, t, x, y, p;
    string me;
    in >> m >> n >> k >> t >> x >> y >> me >> p;
    for (int i = 0; i < p; i++) { int a, b; string c; in >> a >> b >> c; }
    vector<string> rows(m);
    for (int r = 0; r < m; r++) {
        rows[r].clear();
        while ((int)rows[r].size() < n) { string cell; in >> cell; rows[r] += cell; }
    }
    auto open = [&](int r, int c) {
        if (r < 0 || c < 0 || r >= m || c >= n) return false;
        char ch = rows[r][c];
        return ch == '.' || (ch >= 'A' && ch <= 'D');
    };
    FILE* out = fopen("MOVE.OUT", "w");
    if (x < 0) {
        for (int d = 0; d < m + n; d++)
            for (int r = 0; r < m; r++)
                for (int c = 0; c < n; c++)
                    if (abs(r - m / 2) + abs(c - n / 2) == d && open(r, c)) {
                        fprintf(out, "%d %d\n", r, c);
                        fclose(out);
                        return 0;
                    }
    }
    vector<int> parent(m * n, -2);
    queue<int> q;
    q.push(x * n + y);
    parent[x * n + y] = -1;
    int goal = -1;
    int dr[4] = {1, -1, 0, 0}, dc[4] = {0, 0, 1, -1};
    while (!q.empty()) {
        int cur = q.front(); q.pop();
        int r = cur / n, c = cur % n;
        int ring = min(min(r, c), min(m - 1 - r, n - 1 - c));
        if (cur != x * n + y && rows[r][c] != me[0] && ring > t / k) { goal = cur; break; }
        for (int d = 0; d < 4; d++) {
            int nr = r + dr[d], nc = c + dc[d];
            if (open(nr, nc) && parent[nr * n + nc] == -2) {
                parent[nr * n + nc] = cur;
                q.push(nr * n + nc);
            }
        }
    }
    int step = x * n + y;
    if (goal >= 0) {
        step = goal;
        while (parent[step] != x * n + y) step = parent[step];
        FILE* debug = fopen("DEBUG.OUT", "w");      // annotations the arena draws
        if (debug) {
            fprintf(debug, "mark %d %d red target\n", goal / n, goal % n);
            fprintf(debug, "arrow %d %d %d %d black\n", x, y, step / n, step % n);
            fclose(debug);
        }
    }
    fprintf(out, "%d %d\n", step / n, step % n);
    fclose(out);
    return 0;
}

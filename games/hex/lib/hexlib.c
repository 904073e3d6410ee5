/* HexLib for C and C++ over the arena's line protocol (see hexlib.h and PROTOCOL.md). */
#include "hexlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <io.h>
#define dup _dup
#define dup2 _dup2
#define fileno _fileno
#else
#include <unistd.h>
#endif

#define HEX_MAX 20
#define LINE_MAX_LEN 512

static int started = 0;
static int size = 0;
static int player = 1;
static int board[HEX_MAX + 2][HEX_MAX + 2];   /* 1-based, your view */
static int last_row = -1, last_col = -1;
static int status = 0;                        /* GameIsOver's number */
static FILE *arena_in = NULL;
static FILE *arena_out = NULL;
static char line[LINE_MAX_LEN];

/* Read one line into `line`; the arena going away ends the program quietly. */
static void read_line(void)
{
    fflush(stdout);   /* the program's own printf output (now on stderr) shows up in time */
    if (fgets(line, sizeof line, arena_in) == NULL)
        exit(0);
}

static void send_line(const char *text)
{
    fputs(text, arena_out);
    fputc('\n', arena_out);
    fflush(arena_out);
}

static void read_rows(void)
{
    int r, c;
    memset(board, 0, sizeof board);
    for (r = 1; r <= size; r++) {
        read_line();
        for (c = 1; c <= size; c++)
            board[r][c] = line[c - 1] == '1' ? 1 : line[c - 1] == '2' ? 2 : 0;
    }
}

/* Apply one arena message (already in `line`); return its first letter's kind. */
static char handle(void)
{
    int a = 0, b = 0;
    if (strncmp(line, "move ", 5) == 0 && sscanf(line + 5, "%d %d", &a, &b) == 2) {
        if (a >= 1 && a <= size && b >= 1 && b <= size)
            board[a][b] = 2;
        last_row = a;
        last_col = b;
        return 'm';
    }
    if (strncmp(line, "board", 5) == 0) {
        read_rows();
        return 'b';
    }
    if (strncmp(line, "end ", 4) == 0) {
        status = atoi(line + 4);
        return 'e';
    }
    if (strncmp(line, "yourturn", 8) == 0)
        return 'y';
    if (strncmp(line, "ok ", 3) == 0)
        return 'o';
    if (strncmp(line, "error", 5) == 0)
        return 'x';
    return '?';
}

static void wait_for_turn(void)
{
    char kind;
    do {
        read_line();
        kind = handle();
    } while (kind != 'y' && kind != 'e');
}

/* First call: move stdout aside for the protocol, read the start position, wait for our turn. */
static void start(void)
{
    if (started)
        return;
    started = 1;
    arena_in = stdin;
    fflush(stdout);
    arena_out = fdopen(dup(fileno(stdout)), "w");
    if (arena_out == NULL)
        arena_out = stdout;
    else
        dup2(fileno(stderr), fileno(stdout));
    do {
        read_line();
    } while (strncmp(line, "start ", 6) != 0);
    if (sscanf(line + 6, "%d %d", &size, &player) != 2 || size < 1 || size > HEX_MAX)
        exit(1);
    read_rows();
    wait_for_turn();
}

int GetMax(void)
{
    start();
    return size;
}

int GetPlayer(void)
{
    start();
    return player;
}

void Debug(const char *command)
{
    char text[LINE_MAX_LEN];
    start();
    snprintf(text, sizeof text, "# debug %s", command);
    text[strcspn(text, "\r\n")] = '\0';     /* one line, whatever was passed */
    send_line(text);
}

int LookAtBoard(int row, int column)
{
    start();
    if (row < 1 || row > size || column < 1 || column > size)
        return -1;
    return board[row][column];
}

void PutHex(int row, int column)
{
    char text[64];
    char kind;
    start();
    if (status)
        return;
    sprintf(text, "put %d %d", row, column);
    send_line(text);
    for (;;) {
        read_line();
        kind = handle();
        if (kind == 'o') {
            board[row][column] = 1;
            status = atoi(line + 3);
            return;
        }
        if (kind == 'x' || kind == 'e')
            return;
    }
}

int GameIsOver(void)
{
    start();
    return status;
}

void MakeLibMove(void)
{
    start();
    if (status)
        return;
    send_line("done");
    wait_for_turn();
}

int GetRow(void)
{
    start();
    return last_row;
}

int GetColumn(void)
{
    start();
    return last_col;
}

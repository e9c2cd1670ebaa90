/* What the terminal says about the game; see terminal_report.h. */
#include "terminal_report.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "bitboard.h"
#include "position.h"

static const char *side_label(const HumanGame *g, int side)
{
    if (g->human_side == HUMAN_BOTH || g->human_side == side)
        return side == WHITE ? "white" : "black";
    return side == WHITE ? "white (dama)" : "black (dama)";
}

void terminal_report_plies(const HumanGame *g, int *shown)
{
    for (; *shown < human_game_plies(g); (*shown)++) {
        const HumanPly *p = &g->plies[*shown];
        int side = g->positions[*shown].side;
        if (p->by == MOVER_CLOCK) {
            printf("%s's time ran out: %s was played for %s (a second time-out in a row loses)\n",
                   human_side_name(side), p->text, human_side_name(side));
            continue;
        }
        if (p->by == MOVER_HUMAN || g->last_search_ply != *shown + 1) {
            printf("%s plays %s\n", side_label(g, side), p->text);
            continue;
        }
        const EngineReply *r = &g->last_search;
        printf("%s plays %s   eval %s%s for %s, depth %d, %llu nodes\n  pv", side_label(g, side), r->text,
               r->eval > 0 && isdigit((unsigned char)r->eval_text[0]) ? "+" : "", r->eval_text,
               human_side_name(side), r->depth, (unsigned long long)r->nodes);
        for (int i = 0; i < r->pv_length; i++)
            printf(" %s", r->pv[i]);
        putchar('\n');
    }
}

void terminal_report_help(const Variant *v)
{
    printf("Type a move, or a command:\n"
           "  %s        a move: from and to, '-' for a quiet move, 'x' for a capture; a\n"
           "               capture may list its landing squares (%s) or give from and to only\n"
           "  moves        the legal moves\n"
           "  board        the board again       flip   turn the board around\n"
           "  pdn          the game so far as PDN\n"
           "  resign       give up the game      quit   leave (an unfinished game is not saved)\n"
           "  help         this text\n",
           v->numbered ? "32-28" : "c3-c4", v->numbered ? "26x37x48" : "d3xd5xf5");
}

void terminal_report_pdn(const HumanGame *g)
{
    char *text, err[256];
    if (human_game_pdn(g, &text, err, sizeof err)) {
        fputs(text, stdout);
        free(text);
    } else {
        printf("no PDN: %s\n", err);
    }
}

void terminal_report_refusal(const HumanGame *g, const MoveCheck *check)
{
    printf("refused: %s\n", check->reason);
    if (check->refusal == REFUSAL_NONE || !check->movable)
        return;
    printf("  pieces that may move:");
    for (Bitboard b = check->movable; b; b &= b - 1) {
        char name[8];
        printf(" %s", g->variant->square_name(__builtin_ctzll(b), name));
    }
    putchar('\n');
}

void terminal_report_prompt(const HumanGame *g, int64_t now_ms)
{
    int side = human_game_position(g)->side;
    if (g->clock.turn_ms > 0)
        printf("%s to move, %lld s left> ", human_side_name(side),
               (long long)((human_game_time_left(g, now_ms) + 999) / 1000));
    else
        printf("%s to move> ", human_side_name(side));
    fflush(stdout);
}

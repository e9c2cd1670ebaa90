/* Moves as text played on a game (game_moves.h). */
#include <stdio.h>
#include <string.h>

#include "game_moves.h"
#include "move_check.h"

bool game_play_text(Game *game, const char *text, char *err, size_t errlen)
{
    char tok[128], end_text[64];
    int number = 0;
    for (const char *p = text; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        size_t n = strcspn(p, " \t\n\r");
        if (n == 0)
            break;
        const char *word = p;
        p += n;
        size_t digits = strspn(word, "0123456789");
        if (digits > 0 && digits < n && strspn(word + digits, ".") == n - digits)
            continue; /* a move number */
        number++;
        if (n >= sizeof tok)
            return snprintf(err, errlen, "move %d '%.20s...' is too long", number, word), false;
        memcpy(tok, word, n);
        tok[n] = '\0';
        int reason;
        int result = game_result(game, &reason);
        if (result != RESULT_NONE)
            return snprintf(err, errlen, "move %d '%s': the game is over: %s", number, tok,
                            game_end_text((GameEnd){ result, reason }, end_text, sizeof end_text)), false;
        /* refused with the reason `play` gives: a capture is compulsory, where the piece may go */
        MoveCheck check;
        if (!move_check_text(game->variant, &game->pos, &game->rules, tok, &check))
            return snprintf(err, errlen, "move %d '%s': %s", number, tok, check.reason), false;
        if (!game_play(game, &check.move))
            return snprintf(err, errlen, "more than %d plies", MAX_GAME_PLIES), false;
    }
    return true;
}

/* The evaluation terms of International draughts (10x10, FMJD), written once.  Every term is
 * a feature value computed as feature(White) - feature(Black), Black seen from its own side
 * (the board turned half a turn: square n <-> 51 - n), then taken from the side to move; see
 * eval_spec.h.  Squares below are White's: White's home row is 46-50, it crowns on 1-5.
 * A man's advancement is how many rows it stands in front of its home row (46-50: 0,
 * 41-45: 1, ..., 6-10: 8).  Columns a..j from White's left.
 *
 * X(NAME, MG, EG, WHY): the hand-set default weights (hundredths of a man) with many men on
 * the board (MG) and with few (EG), and why the term exists; the string is also written into
 * weights files.  The tuner refits the weights from self-play: these are signs and sizes. */
#ifndef DAMA_INTERNATIONAL_EVAL_FEATURES_H
#define DAMA_INTERNATIONAL_EVAL_FEATURES_H

#define INTL_EVAL_FEATURES(X)                                                                     \
    X(MAN,               100, 100, "men on the board: the unit of material")                      \
    X(KING_FIRST,        280, 320, "having a king at all: a flying king on 10x10 is worth about 3 men") \
    X(KING_EXTRA,        200, 180, "each further king: less than the first (3 kings rarely beat 1)") \
    X(KINGS_BOTH_MEN,    -20, -40, "men ahead while both sides have a king: a draw is likelier")   \
    X(MAN_ADV1,            1,   3, "man 1 row in front of its home row (41-45)")                  \
    X(MAN_ADV2,            2,   6, "man 2 rows in front (36-40)")                                  \
    X(MAN_ADV3,            4,  10, "man 3 rows in front (31-35)")                                  \
    X(MAN_ADV4,            6,  15, "man 4 rows in front (26-30)")                                  \
    X(MAN_ADV5,            7,  21, "man 5 rows in front (21-25): on the enemy half")               \
    X(MAN_ADV6,            8,  29, "man 6 rows in front (16-20)")                                  \
    X(MAN_ADV7,           11,  40, "man 7 rows in front (11-15)")                                  \
    X(MAN_ADV8,           20,  55, "man 8 rows in front (6-10): one step from the crown")          \
    X(TEMPO,              -2,   0, "4x mean advancement of the men: an army gone forward early runs out of moves") \
    X(CENTRE,              4,   1, "men on 22, 23, 27, 28, 29, 32, 33: the centre splits the enemy wings") \
    X(CLASSIC,             6,   0, "men on 27, 28 and 32 together: the classical centre (klassiek)") \
    X(OUTPOST,             8,   2, "man on 22, 23 or 24 with both squares behind it held")         \
    X(OUTPOST_WEAK,       -8,  -2, "man on 22, 23 or 24 with a square behind it not held")         \
    X(HALF_IMBALANCE,     -2,  -1, "|men on columns a-e - men on f-j|: one half of the board left thin") \
    X(FLANK_IMBALANCE,    -4,  -1, "|men on columns a-c - men on h-j|: one wing left weak")        \
    X(EDGE_MEN,           -3,  -1, "men on column a or j: safe from capture but with one move")    \
    X(BACK_GUARD,          6,   3, "men on 47, 48, 49, at most 2: they stop break-throughs to the crown") \
    X(GOLDEN_MAN,          6,   3, "a man on 48 (the golden piece): the best guard, helps both wings") \
    X(MAN_MOBILITY,        2,   3, "quiet man moves onto empty squares")                          \
    X(BLOCKED,            -3,  -6, "men with no quiet move: locked men cost tempo")               \
    X(RUNAWAY,            80, 150, "men with an empty path to the crown no enemy man can reach; none against a king") \
    X(EN_PRISE,          -25, -30, "own pieces an enemy piece could capture right now")            \
    X(KING_MOBILITY,       2,   3, "empty squares the kings reach that no enemy man could take them on") \
    X(KING_DENIED,         0,   1, "empty squares the kings reach where an enemy man would take them") \
    X(KING_MAIN_DIAGONAL,  5,  15, "kings on the long diagonal 46-5: the line a lone king draws on") \
    X(SIDE_TO_MOVE,        2,   1, "the side to move: the move itself is worth something")

/* INTL_FEAT_MAN, INTL_FEAT_KING_FIRST, ...: index of a feature. */
enum IntlEvalFeature {
#define INTL_EVAL_FEATURE_ENUM(name, mg, eg, why) INTL_FEAT_##name,
    INTL_EVAL_FEATURES(INTL_EVAL_FEATURE_ENUM)
#undef INTL_EVAL_FEATURE_ENUM
    INTL_EVAL_NUM_FEATURES
};

#endif

/* The evaluation terms of Brazilian draughts (8x8, International's rules), written once.
 * Every term is feature(White) - feature(Black), Black seen from its own side (the board
 * turned half a turn: square n <-> 33 - n), then taken from the side to move (eval_spec.h).
 * Squares below are White's: its home row is 29-32 (a1 c1 e1 g1), it crowns on 1-4.  A
 * man's advancement is how many rows it stands in front of its home row.
 *
 * X(NAME, MG, EG, WHY): hand-set default weights (hundredths of a man) with many men on
 * the board (MG) and with few (EG), and why the term exists.  Signs and sizes: training
 * refits them. */
#ifndef DAMA_BRAZILIAN_EVAL_FEATURES_H
#define DAMA_BRAZILIAN_EVAL_FEATURES_H

#define BR_EVAL_FEATURES(X)                                                                       \
    X(MAN,               100, 100, "men on the board: the unit of material")                      \
    X(KING_FIRST,        250, 300, "having a king at all: a flying king on 8x8 is worth about 3 men") \
    X(KING_EXTRA,        200, 200, "each further king (three kings against one may only draw)")   \
    X(KINGS_BOTH_MEN,    -20, -40, "men ahead while both sides have a king: a draw is likelier")   \
    X(MAN_ADV1,            1,   3, "man 1 row in front of its home row (25-28)")                  \
    X(MAN_ADV2,            3,   8, "man 2 rows in front (21-24)")                                  \
    X(MAN_ADV3,            5,  14, "man 3 rows in front (17-20)")                                  \
    X(MAN_ADV4,            7,  22, "man 4 rows in front (13-16): on the enemy half")               \
    X(MAN_ADV5,           10,  35, "man 5 rows in front (9-12)")                                   \
    X(MAN_ADV6,           20,  55, "man 6 rows in front (5-8): one step from the crown")           \
    X(CENTRE,              4,   1, "men on 14, 15, 18, 19 (c5 e5 d4 f4): the centre splits the wings") \
    X(EDGE_MEN,           -3,  -1, "men on column a or h: safe from capture but with one move")    \
    X(BACK_GUARD,          6,   2, "men on the home row, at most 2: they stop break-throughs")     \
    X(MAN_MOBILITY,        2,   3, "quiet man moves onto empty squares")                          \
    X(BLOCKED,            -3,  -6, "men with no quiet move: locked men cost tempo")               \
    X(EN_PRISE,          -25, -30, "own pieces an enemy piece could capture right now")            \
    X(KING_MOBILITY,       2,   3, "empty squares the kings reach by sliding")                     \
    X(KING_MAIN_DIAGONAL,  5,  20, "kings on the long diagonal a1-h8 (29-4): where a lone king draws") \
    X(SIDE_TO_MOVE,        2,   1, "the side to move: the move itself is worth something")

/* BR_FEAT_MAN, BR_FEAT_KING_FIRST, ...: index of a feature. */
enum BrazilianEvalFeature {
#define BR_EVAL_FEATURE_ENUM(name, mg, eg, why) BR_FEAT_##name,
    BR_EVAL_FEATURES(BR_EVAL_FEATURE_ENUM)
#undef BR_EVAL_FEATURE_ENUM
    BR_EVAL_NUM_FEATURES
};

/* Men on the board at the start: the full middlegame. */
#define BR_PHASE_MAX 24

#endif

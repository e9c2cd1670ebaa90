/* The evaluation terms of Russian draughts (8x8, flying kings), written once.  Every term is
 * feature(White) - feature(Black), Black seen from its own side (the board turned half a
 * turn), then taken from the side to move; see eval_spec.h.  Squares below are White's:
 * White's home row is rank 1, it crowns on rank 8.  A man's advancement is how many rows it
 * stands in front of its home row (rank 1: 0, ..., rank 7: 6).
 *
 * X(NAME, MG, EG, WHY): the hand-set default weights (hundredths of a man) with many men on
 * the board (MG) and with few (EG), and why the term exists.  The tuner refits them from
 * self-play: these are signs and sizes. */
#ifndef DAMA_RUSSIAN_EVAL_FEATURES_H
#define DAMA_RUSSIAN_EVAL_FEATURES_H

#define RUSSIAN_EVAL_FEATURES(X)                                                                 \
    X(MAN,               100, 100, "men on the board: the unit of material")                      \
    X(KING_FIRST,        250, 300, "having a king at all: a flying king on 8x8 is worth about 3 men") \
    X(KING_EXTRA,        200, 200, "each further king: three kings rarely beat one on the main road") \
    X(MAN_ADV1,            1,   3, "man 1 row in front of its home row (rank 2)")                \
    X(MAN_ADV2,            2,   6, "man 2 rows in front (rank 3)")                                \
    X(MAN_ADV3,            4,  10, "man 3 rows in front (rank 4)")                                \
    X(MAN_ADV4,            6,  16, "man 4 rows in front (rank 5): on the enemy half")             \
    X(MAN_ADV5,            9,  25, "man 5 rows in front (rank 6)")                                \
    X(MAN_ADV6,           15,  40, "man 6 rows in front (rank 7): one step from the crown")       \
    X(CENTRE,              5,   1, "men on c5, d4, e5, f4: the centre splits the enemy wings")    \
    X(EDGE_MEN,           -3,  -1, "men on column a or h: safe from capture but with one move")   \
    X(BACK_GUARD,          6,   2, "men on c1, e1 or g1, at most 2: they stop break-throughs to the crown") \
    X(MAN_MOBILITY,        2,   3, "quiet man moves onto empty squares")                          \
    X(BLOCKED,            -3,  -6, "men with no quiet move: locked men cost tempo")               \
    X(EN_PRISE,          -25, -30, "own pieces an enemy piece could capture right now")            \
    X(KING_MOBILITY,       2,   3, "empty squares the kings reach")                               \
    X(KING_MAIN_ROAD,      8,  20, "kings on the main road a1-h8: the line a lone king draws on")  \
    X(SIDE_TO_MOVE,        2,   1, "the side to move: the move itself is worth something")

enum RussianEvalFeature {
#define RUSSIAN_EVAL_FEATURE_ENUM(name, mg, eg, why) RUSSIAN_FEAT_##name,
    RUSSIAN_EVAL_FEATURES(RUSSIAN_EVAL_FEATURE_ENUM)
#undef RUSSIAN_EVAL_FEATURE_ENUM
    RUSSIAN_EVAL_NUM_FEATURES
};

#endif

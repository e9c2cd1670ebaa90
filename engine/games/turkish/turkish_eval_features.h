/* The evaluation terms of Turkish draughts, written once.  Every term is a feature value
 * computed as feature(White) - feature(Black) (Black seen with ranks mirrored), and has two
 * weights: NAME_MG counts when many men are on the board, NAME_EG when few (see evaluate.h).
 * turkish_eval.c measures them and turns the table into the variant's EvalSpec.
 *
 * X(NAME, MG, EG, WHY): the hand-set default weights (hundredths of a man) and why the term
 * exists; the string is also written into weights files.  Ranks and files below are White's
 * (R2 = White's home rank); the man tables fold the board left-right (AH = files a and h). */
#ifndef DAMA_TURKISH_EVAL_FEATURES_H
#define DAMA_TURKISH_EVAL_FEATURES_H

#define EVAL_FEATURES(X)                                                                       \
    X(MAN,         100, 100, "men on the board: the unit of material")                          \
    X(KING_FIRST,  280, 300, "having a king at all: one flying king dominates men")             \
    X(KING_EXTRA,  180, 220, "each further king: worth less than the first")                    \
    X(MAN_R2_AH,    -4,  -4, "man on rank 2, file a/h (d2/e2 is MAN itself, no term)")          \
    X(MAN_R2_BG,    -2,  -2, "man on rank 2, file b/g")                                         \
    X(MAN_R2_CF,     0,   0, "man on rank 2, file c/f")                                         \
    X(MAN_R3_AH,     0,   4, "man on rank 3, file a/h")                                         \
    X(MAN_R3_BG,     3,   5, "man on rank 3, file b/g")                                         \
    X(MAN_R3_CF,     5,   6, "man on rank 3, file c/f")                                         \
    X(MAN_R3_DE,     6,   6, "man on rank 3, file d/e")                                         \
    X(MAN_R4_AH,     2,  10, "man on rank 4, file a/h")                                         \
    X(MAN_R4_BG,     6,  11, "man on rank 4, file b/g")                                         \
    X(MAN_R4_CF,     9,  12, "man on rank 4, file c/f")                                         \
    X(MAN_R4_DE,    10,  12, "man on rank 4, file d/e")                                         \
    X(MAN_R5_AH,     4,  18, "man on rank 5, file a/h")                                         \
    X(MAN_R5_BG,     9,  19, "man on rank 5, file b/g")                                         \
    X(MAN_R5_CF,    13,  20, "man on rank 5, file c/f")                                         \
    X(MAN_R5_DE,    14,  20, "man on rank 5, file d/e")                                         \
    X(MAN_R6_AH,     8,  30, "man on rank 6, file a/h")                                         \
    X(MAN_R6_BG,    14,  31, "man on rank 6, file b/g")                                         \
    X(MAN_R6_CF,    18,  32, "man on rank 6, file c/f")                                         \
    X(MAN_R6_DE,    20,  32, "man on rank 6, file d/e")                                         \
    X(MAN_R7_AH,    15,  50, "man on rank 7, file a/h: one step from the crown")                \
    X(MAN_R7_BG,    22,  50, "man on rank 7, file b/g")                                         \
    X(MAN_R7_CF,    26,  50, "man on rank 7, file c/f")                                         \
    X(MAN_R7_DE,    28,  50, "man on rank 7, file d/e")                                         \
    X(BACK_GUARD,    6,   2, "men on the home rank, at most 4: a few stop break-throughs")      \
    X(KING_EDGE,     4,   4, "kings on the edge: cannot be jumped across the edge line")        \
    X(MAN_MOBILITY,  2,   2, "quiet man moves (forward, left, right onto empty squares)")       \
    X(KING_MOBILITY, 2,   3, "empty squares the kings reach along ranks and files")             \
    X(RUNAWAY,      60, 120, "men with a free file ahead, no enemy man beside it, no enemy king")\
    X(BLOCKED,      -6, -10, "men with no quiet move: they cost tempo and can be attacked")     \
    X(TEMPO,         1,   2, "4x mean advancement of the men: how committed the army is")       \
    X(WING_IMBALANCE,-3, -2, "|men on files a-d - men on files e-h|: one wing is left weak")    \
    X(KING_EXPOSED, -40, -50, "kings an enemy man or king could capture right now")             \
    X(SIDE_TO_MOVE,  4,   2, "the side to move: the move itself is worth something")

/* FEAT_MAN, FEAT_KING_FIRST, ...: index of a feature. */
enum EvalFeature {
#define EVAL_FEATURE_ENUM(name, mg, eg, why) FEAT_##name,
    EVAL_FEATURES(EVAL_FEATURE_ENUM)
#undef EVAL_FEATURE_ENUM
    EVAL_NUM_FEATURES
};

/* W_MAN_MG, W_MAN_EG, ...: index of a weight.  Feature f owns weights 2f (MG) and 2f+1 (EG). */
enum EvalWeight {
#define EVAL_WEIGHT_ENUM(name, mg, eg, why) W_##name##_MG, W_##name##_EG,
    EVAL_FEATURES(EVAL_WEIGHT_ENUM)
#undef EVAL_WEIGHT_ENUM
    EVAL_NUM_WEIGHTS
};

#endif

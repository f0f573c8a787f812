/* style.h - the one style table every writer reads: colours beyond the
 * figure's own, opacities, edges and line widths, legend and tick
 * metrics, and the font roles of the fit policy.  The scene (layout.c),
 * the plan (plan.c) and the TikZ writers (tikz_common.c writes the
 * template's \tikzset defaults from it) take each value from here, so a
 * style is written once.  Lengths are points; "em" values are multiples of
 * the font size they go with. */
#ifndef TF_STYLE_H
#define TF_STYLE_H

#include <stdint.h>

struct tf_style {
    /* Bars. */
    double bar_edge_pt;    /* a bar's and a legend swatch's edge */
    double flame_edge_pt;  /* a flame chart bar's edge ... */
    unsigned flame_edge_pct; /* ... in its fill's shade: this % of it, the rest black */
    double min_bar_pt;     /* a flame bar is widened to at least this */
    double dense_opacity;  /* a dense span (merged slices): fill, no edge */
    double share_floor_pt; /* a busy-share bin inking less is drawn this high */
    double instant_pt;     /* an instant's stroke */
    /* Colours of the frame (seaborn whitegrid, paper context). */
    uint32_t text, spine, grid, arrow, frame;
    uint32_t critical;     /* the critical path's arrows (the marks' ink) */
    /* Line widths. */
    double spine_pt, grid_pt, hgrid_pt, panel_major_pt, panel_edge_pt, underline_pt, frame_pt;
    /* Text: the least gap between two text boxes; tick labels keep
     * tick_gap_boxes of them between neighbours (else one is left out). */
    double text_gap_pt;
    double tick_gap_boxes;
    /* Tick candidates: the mode's set when it has at least tick_min_n
     * ticks, then MaxNLocator with tick_bins_max .. 1 bins (sets of fewer
     * than tick_min_n ticks only at 1 bin). */
    unsigned tick_min_n;
    int tick_bins_max;
    /* Legend geometry, em (matplotlib's legend defaults as the reference
     * sets them). */
    double leg_pad, leg_handle_h, leg_textpad, leg_labelspace;
    double leg_bottom_handle, leg_bottom_colspace; /* the bottom legend row */
    double leg_panel_handle, leg_panel_axespad;    /* the breakdown panel's */
    /* What TikZ draws thinner in print than the scene (the template's bar
     * edge and instant). */
    double tikz_bar_edge_pt, tikz_instant_pt;
    /* A flame edge's colour where no category gives its shade: black!this
     * (a document's own bar styles). */
    unsigned tikz_flame_black_pct;
    /* Font roles of the fit policy, relative to the base font. */
    double font_tick, font_inbar, font_counter;
};

extern const struct tf_style tf_style;

#endif

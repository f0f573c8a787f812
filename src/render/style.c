/* style.c - the style table's values; see style.h. */
#include "render/style.h"

const struct tf_style tf_style = {
    .bar_edge_pt = 0.6,
    .flame_edge_pt = 0.3,
    .flame_edge_pct = 65,
    .min_bar_pt = 0.6,
    .dense_opacity = 0.55,
    .share_floor_pt = 0.4,
    .instant_pt = 1.0,
    .text = 0x262626u,  /* ".15": axis labels, legend text */
    .spine = 0xCCCCCCu, /* ".8" */
    .grid = 0x808080u,  /* "gray" */
    .arrow = 0x555555u, /* Tol's dark grey */
    .frame = 0xCCCCCCu,
    .critical = 0x222222u,
    .spine_pt = 1.0,
    .grid_pt = 0.8,
    .hgrid_pt = 0.8,
    .panel_major_pt = 1.2,
    .panel_edge_pt = 0.5,
    .underline_pt = 0.9,
    .frame_pt = 0.8,
    .text_gap_pt = 2.0,
    .tick_gap_boxes = 2.0,
    .tick_min_n = 3,
    .tick_bins_max = 7,
    .leg_pad = 0.4,
    .leg_handle_h = 0.7,
    .leg_textpad = 0.8,
    .leg_labelspace = 0.35,
    .leg_bottom_handle = 1.6,
    .leg_bottom_colspace = 1.2,
    .leg_panel_handle = 1.2,
    .leg_panel_axespad = 0.4,
    .tikz_bar_edge_pt = 0.3,
    .tikz_instant_pt = 0.6,
    .tikz_flame_black_pct = 60,
    .font_tick = 0.875,
    .font_inbar = 0.8,
    .font_counter = 0.75,
};

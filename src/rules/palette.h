/* palette.h - the colours the modes give their categories (0xRRGGBB).
 *
 * The pipelined and PyTorch modes use the reference script's palette,
 * exactly, so figures keep its look.
 */
#ifndef TF_PALETTE_H
#define TF_PALETTE_H

#define TF_COLOR_IO 0xB8B8B8u
#define TF_COLOR_WAIT_FOR_IO 0xD35400u
#define TF_COLOR_AWAIT_DISPATCH 0xE67E22u
#define TF_COLOR_TRSM_HOST 0x5B2C6Fu
#define TF_COLOR_GPU0 0x2E8B57u
#define TF_COLOR_GPU1 0x3DA56Au
#define TF_COLOR_CAST 0xAA3377u
#define TF_COLOR_TRSM 0x004488u
#define TF_COLOR_GEMM_CHOL 0xC9A227u

#endif

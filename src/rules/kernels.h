/* kernels.h - what a GPU event is, decided in one place: HTA's kernel
 * types (the HTA statistics), the classes of the GPU breakdown (the
 * overlap statistics) and the communication kernels the Chrome mode
 * colours apart ("NCCL kernel") all come from tf_hta_kernel_type. */
#ifndef TF_KERNELS_H
#define TF_KERNELS_H

#include <stdbool.h>

/* HTA's kernel types (hta/utils/utils.py get_kernel_type). */
enum tf_hta_kernel { TF_HTA_COMM, TF_HTA_MEMORY, TF_HTA_COMPUTE, TF_HTA_OTHER };

/* The type HTA gives a kernel name: communication (^nccl, ^hip, ^hccl,
 * ncclKernel), memory (^Memcpy, ^Memset, their hip forms, ^dma), compute
 * (anything but the names HTA's compute pattern excludes: Memcpy, Memset,
 * dma or Sync anywhere, ^Stream Wait Event, ^cuda...LaunchKernel,
 * ^runFunction, ^job_exe, ^packet, ^pe_exe, ^cpum_exe_subgraph,
 * ^collective_subgraph_execution), or other.  Python's regular expression
 * semantics: "anywhere" means on the first line. */
enum tf_hta_kernel tf_hta_kernel_type(const char *name);

/* Kernel classes of the GPU breakdown (the man page, STATISTICS): HTA's
 * kernel types (tf_hta_kernel_type), except that
 * synchronisation is no GPU work. */
enum tf_kernel_class {
    TF_KERNEL_NONE = 0, /* not counted: synchronisation (category cuda_sync,
                           or a name ending in "Sync") */
    TF_KERNEL_COMPUTE,
    TF_KERNEL_COMM,     /* HTA's COMMUNICATION: ^nccl, ^hip, ^hccl, ncclKernel */
    TF_KERNEL_MEMORY,   /* HTA's MEMORY: ^Memcpy, ^Memset (and hip...), ^dma */
    TF_KERNEL_OTHER     /* HTA's OTHER: busy, not compute (pe_exe, job_exe, ...) */
};

/* The class of a GPU event (one on a GPU lane: launches and other runtime
 * calls on CPU lanes are the caller's to leave out).  cat may be NULL. */
enum tf_kernel_class tf_kernel_classify(const char *name, const char *cat);

/* A communication kernel (HTA's COMMUNICATION type): the Chrome mode's
 * "NCCL kernel" colour, for an event of category kernel. */
bool tf_kernel_is_comm(const char *name);

#endif

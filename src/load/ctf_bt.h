/* ctf_bt.h - libbabeltrace2 for the CTF loader: the functions it calls
 * (dlopen()ed once by ctf.c into tf_ctf_bt), and one stream's sink, whose
 * messages ctf_msg.c turns into events.  Private to src/load/ctf*.c, and
 * only with TF_HAVE_BT2 (babeltrace2's headers).
 */
#ifndef TF_LOAD_CTF_BT_H
#define TF_LOAD_CTF_BT_H

#include <babeltrace2/babeltrace.h>

#include "base/dl.h"
#include "load/ctf_int.h"

#define TF_BT_FUNCS(X)                                                                          \
    X(0, bt_plugin_find_status, bt_plugin_find,                                                 \
      (const char *, bt_bool, bt_bool, bt_bool, bt_bool, bt_bool, const bt_plugin **))          \
    X(0, const bt_component_class_source *, bt_plugin_borrow_source_component_class_by_name_const, \
      (const bt_plugin *, const char *))                                                        \
    X(0, bt_graph *, bt_graph_create, (uint64_t))                                               \
    X(0, void, bt_graph_put_ref, (const bt_graph *))                                            \
    X(0, bt_graph_add_component_status, bt_graph_add_source_component,                         \
      (bt_graph *, const bt_component_class_source *, const char *, const bt_value *,           \
       bt_logging_level, const bt_component_source **))                                         \
    X(0, bt_graph_add_component_status, bt_graph_add_simple_sink_component,                    \
      (bt_graph *, const char *, bt_graph_simple_sink_component_initialize_func,                \
       bt_graph_simple_sink_component_consume_func,                                             \
       bt_graph_simple_sink_component_finalize_func, void *, const bt_component_sink **))       \
    X(0, bt_graph_connect_ports_status, bt_graph_connect_ports,                                 \
      (bt_graph *, const bt_port_output *, const bt_port_input *, const bt_connection **))      \
    X(0, bt_graph_run_status, bt_graph_run, (bt_graph *))                                       \
    X(0, uint64_t, bt_component_source_get_output_port_count, (const bt_component_source *))    \
    X(0, const bt_port_output *, bt_component_source_borrow_output_port_by_index_const,         \
      (const bt_component_source *, uint64_t))                                                  \
    X(0, const bt_port_input *, bt_component_sink_borrow_input_port_by_index_const,             \
      (const bt_component_sink *, uint64_t))                                                    \
    X(0, bt_value *, bt_value_map_create, (void))                                               \
    X(0, bt_value *, bt_value_array_create, (void))                                             \
    X(0, void, bt_value_put_ref, (const bt_value *))                                            \
    X(0, bt_value_array_append_element_status, bt_value_array_append_string_element,            \
      (bt_value *, const char *))                                                               \
    X(0, bt_value_map_insert_entry_status, bt_value_map_insert_entry,                           \
      (bt_value *, const char *, bt_value *))                                                   \
    X(0, bt_value_type, bt_value_get_type, (const bt_value *))                                  \
    X(0, const char *, bt_value_string_get, (const bt_value *))                                 \
    X(0, bt_message_iterator_next_status, bt_message_iterator_next,                             \
      (bt_message_iterator *, bt_message_array_const *, uint64_t *))                            \
    X(0, void, bt_message_put_ref, (const bt_message *))                                        \
    X(0, bt_message_type, bt_message_get_type, (const bt_message *))                            \
    X(0, const bt_stream *, bt_message_stream_beginning_borrow_stream_const,                    \
      (const bt_message *))                                                                     \
    X(0, const bt_packet *, bt_message_packet_beginning_borrow_packet_const,                    \
      (const bt_message *))                                                                     \
    X(0, const bt_event *, bt_message_event_borrow_event_const, (const bt_message *))           \
    X(0, const bt_clock_class *, bt_message_event_borrow_stream_class_default_clock_class_const, \
      (const bt_message *))                                                                     \
    X(0, const bt_clock_snapshot *, bt_message_event_borrow_default_clock_snapshot_const,       \
      (const bt_message *))                                                                     \
    X(0, bt_property_availability, bt_message_discarded_events_get_count,                       \
      (const bt_message *, uint64_t *))                                                         \
    X(0, const bt_stream *, bt_message_discarded_events_borrow_stream_const,                    \
      (const bt_message *))                                                                     \
    X(0, const bt_clock_snapshot *,                                                             \
      bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const,                \
      (const bt_message *))                                                                     \
    X(0, const bt_clock_snapshot *,                                                             \
      bt_message_discarded_events_borrow_end_default_clock_snapshot_const,                      \
      (const bt_message *))                                                                     \
    X(0, const bt_stream *, bt_message_discarded_packets_borrow_stream_const,                   \
      (const bt_message *))                                                                     \
    X(0, bt_property_availability, bt_message_discarded_packets_get_count,                      \
      (const bt_message *, uint64_t *))                                                         \
    X(0, const bt_clock_snapshot *,                                                             \
      bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const,               \
      (const bt_message *))                                                                     \
    X(0, const bt_clock_snapshot *,                                                             \
      bt_message_discarded_packets_borrow_end_default_clock_snapshot_const,                     \
      (const bt_message *))                                                                     \
    X(0, const bt_stream_class *, bt_stream_borrow_class_const, (const bt_stream *))            \
    X(0, bt_bool, bt_stream_class_discarded_events_have_default_clock_snapshots,                \
      (const bt_stream_class *))                                                                \
    X(0, bt_bool, bt_stream_class_discarded_packets_have_default_clock_snapshots,               \
      (const bt_stream_class *))                                                                \
    X(0, bt_clock_snapshot_get_ns_from_origin_status, bt_clock_snapshot_get_ns_from_origin,     \
      (const bt_clock_snapshot *, int64_t *))                                                   \
    X(0, const bt_event_class *, bt_event_borrow_class_const, (const bt_event *))               \
    X(0, const char *, bt_event_class_get_name, (const bt_event_class *))                       \
    X(0, const bt_field *, bt_event_borrow_payload_field_const, (const bt_event *))             \
    X(0, const bt_field *, bt_event_borrow_common_context_field_const, (const bt_event *))      \
    X(0, const bt_field *, bt_event_borrow_specific_context_field_const, (const bt_event *))    \
    X(0, const bt_stream *, bt_event_borrow_stream_const, (const bt_event *))                   \
    X(0, const bt_field *, bt_packet_borrow_context_field_const, (const bt_packet *))           \
    X(0, const bt_stream *, bt_packet_borrow_stream_const, (const bt_packet *))                 \
    X(0, const char *, bt_stream_get_name, (const bt_stream *))                                 \
    X(0, uint64_t, bt_stream_get_id, (const bt_stream *))                                       \
    X(0, const bt_trace *, bt_stream_borrow_trace_const, (const bt_stream *))                   \
    X(0, const char *, bt_trace_get_name, (const bt_trace *))                                   \
    X(0, const bt_value *, bt_trace_borrow_environment_entry_value_by_name_const,               \
      (const bt_trace *, const char *))                                                         \
    X(0, bt_field_class_type, bt_field_get_class_type, (const bt_field *))                      \
    X(0, const bt_field *, bt_field_structure_borrow_member_field_by_name_const,                \
      (const bt_field *, const char *))                                                         \
    X(0, uint64_t, bt_field_integer_unsigned_get_value, (const bt_field *))                     \
    X(0, int64_t, bt_field_integer_signed_get_value, (const bt_field *))                        \
    X(0, const char *, bt_field_string_get_value, (const bt_field *))                           \
    X(0, const bt_error *, bt_current_thread_take_error, (void))                                \
    X(0, void, bt_current_thread_clear_error, (void))                                           \
    X(0, uint64_t, bt_error_get_cause_count, (const bt_error *))                                \
    X(0, const bt_error_cause *, bt_error_borrow_cause_by_index, (const bt_error *, uint64_t))  \
    X(0, const char *, bt_error_cause_get_message, (const bt_error_cause *))                    \
    X(0, void, bt_error_release, (const bt_error *))
TF_BT_FUNCS(TF_DL_TYPEDEF)
struct tf_ctf_bt_api {
    TF_BT_FUNCS(TF_DL_MEMBER)
};
/* Filled by ctf_lib.c before any sink runs. */
extern struct tf_ctf_bt_api tf_ctf_bt;

/* libbabeltrace2 and its ctf plugin, loaded once: the plugin, or NULL with
 * the reason in d (what to install). */
const bt_plugin *tf_ctf_lib_load(struct tf_diag *d);

/* One stream's sink: its streams (a port has one; kept as a short list). */
struct ctf_port {
    struct ctf *x;
    const bt_stream *bs[4];
    uint32_t idx[4];
    size_t n;
    int64_t last_tid; /* the thread last named from this stream's contexts */
    bool failed;
    bool iter_failed;  /* its iterator reported an error */
    char path[1024];   /* its (first) stream's file */
    long long n_begun; /* packets begun */
    bool in_packet;
};

/* One message of the port's stream into p->x (events, lost ranges, the
 * packets' CPU); false with the message in p->x->d. */
bool tf_ctf_message(struct ctf_port *p, const bt_message *m);

#endif

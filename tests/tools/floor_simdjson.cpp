// floor_simdjson.cpp - what simdjson, the fastest JSON parser we know of,
// takes on this machine for the first half of tracefig's job on a Chrome
// trace: every event's "ts".  make bench prints it beside tracefig's own
// times (tests/tools/bench-large.sh) as the floor the scanner can aim at.
//
//   floor_simdjson TRACE.json [RUNS]
//
// It loads the whole file into memory first (not timed: about a `cat`),
// then, best of RUNS (default 3) on one core, times simdjson's On Demand
// API in its two steps: stage 1 (`iterate`: UTF-8 validation and the index
// of every structural byte) and the walk over "traceEvents" that reads
// each event's keys and its "ts" as a number.  On Demand validates only
// what it reads: the values it passes over (names, args, dur, ...) are not
// checked, where tracefig checks every byte as jansson would.  Then the
// same API made to validate everything, a walk reading every value (each
// number as a double, each string decoded, each word checked), and its DOM
// parser, which validates every value and converts every number and string
// onto its tape.  simdjson's API validates a number only by converting
// it, so these two do more than a validator must.  Built with
// -march=native, so simdjson uses the widest instructions the machine has.
//
// Prints one line: "stage1 S walk W all A dom D events N kernel K" (seconds).
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>

using namespace simdjson;

static double now()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// Reads the value v and everything in it; *n counts the scalars.
static error_code read_all(ondemand::value v, size_t *n, double *sum)
{
    ondemand::json_type t;
    if (auto err = v.type().get(t))
        return err;
    switch (t) {
    case ondemand::json_type::object: {
        ondemand::object o;
        if (auto err = v.get_object().get(o))
            return err;
        for (auto field : o) {
            std::string_view key;
            ondemand::value child;
            if (auto err = field.unescaped_key().get(key))
                return err;
            if (auto err = field.value().get(child))
                return err;
            if (auto err = read_all(child, n, sum))
                return err;
        }
        return SUCCESS;
    }
    case ondemand::json_type::array: {
        ondemand::array a;
        if (auto err = v.get_array().get(a))
            return err;
        for (auto element : a) {
            ondemand::value child;
            if (auto err = element.get(child))
                return err;
            if (auto err = read_all(child, n, sum))
                return err;
        }
        return SUCCESS;
    }
    case ondemand::json_type::number: {
        double d;
        if (auto err = v.get_double().get(d))
            return err;
        *sum += d;
        break;
    }
    case ondemand::json_type::string: {
        std::string_view text;
        if (auto err = v.get_string().get(text))
            return err;
        break;
    }
    case ondemand::json_type::boolean: {
        bool b;
        if (auto err = v.get_bool().get(b))
            return err;
        break;
    }
    case ondemand::json_type::null: {
        bool is_null;
        if (auto err = v.is_null().get(is_null))
            return err;
        break;
    }
    }
    ++*n;
    return SUCCESS;
}

static int fail(const char *path, error_code err)
{
    std::fprintf(stderr, "floor_simdjson: %s: %s\n", path, error_message(err));
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: floor_simdjson TRACE.json [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? std::atoi(argv[2]) : 3;
    padded_string json;
    if (auto err = padded_string::load(argv[1]).get(json))
        return fail(argv[1], err);
    // One parser for every run: its index is allocated and touched once,
    // as a scanner's buffers are, so the runs after the first time the
    // work, not the page faults.
    ondemand::parser parser(json.size());
    double best_s1 = 1e30, best_walk = 1e30;
    size_t events = 0;
    for (int run = 0; run < runs + 1; run++) {
        double t0 = now();
        ondemand::document doc;
        if (auto err = parser.iterate(json).get(doc))
            return fail(argv[1], err);
        double t1 = now();
        size_t n = 0;
        double sum = 0;
        ondemand::object top;
        if (auto err = doc.get_object().get(top))
            return fail(argv[1], err);
        for (auto member : top) {
            std::string_view key;
            if (member.unescaped_key().get(key) || key != "traceEvents")
                continue;
            for (auto ev : member.value().get_array()) {
                ondemand::object o;
                if (ev.get_object().get(o))
                    continue;
                n++;
                for (auto m : o) {
                    std::string_view k;
                    double ts;
                    if (!m.unescaped_key().get(k) && k == "ts" && !m.value().get_double().get(ts))
                        sum += ts;
                }
            }
        }
        double t2 = now();
        if (sum < 0)
            std::fprintf(stderr, "floor_simdjson: negative time sum\n"); // keeps the walk
        if (run == 0)
            continue; // the first run pays the index's page faults
        best_s1 = t1 - t0 < best_s1 ? t1 - t0 : best_s1;
        best_walk = t2 - t1 < best_walk ? t2 - t1 : best_walk;
        events = n;
    }
    // Every value read, with the same parser.
    double best_all = 1e30;
    for (int run = 0; run < runs + 1; run++) {
        double t0 = now();
        ondemand::document doc;
        ondemand::value root;
        if (auto err = parser.iterate(json).get(doc))
            return fail(argv[1], err);
        if (auto err = doc.get_value().get(root))
            return fail(argv[1], err);
        size_t n = 0;
        double sum = 0;
        if (auto err = read_all(root, &n, &sum))
            return fail(argv[1], err);
        double t = now() - t0;
        if (run > 0 && t < best_all)
            best_all = t;
    }
    // The DOM parser, its tape allocated once, as above.
    double best_dom = 1e30;
    {
        dom::parser dp;
        if (auto err = dp.allocate(json.size()))
            return fail(argv[1], err);
        for (int run = 0; run < runs + 1; run++) {
            double t0 = now();
            dom::element doc;
            if (auto err = dp.parse(json).get(doc))
                return fail(argv[1], err);
            double t = now() - t0;
            if (run > 0 && t < best_dom)
                best_dom = t;
        }
    }
    std::printf("stage1 %.3f walk %.3f all %.3f dom %.3f events %zu kernel %s\n", best_s1,
                best_walk, best_all, best_dom, events, get_active_implementation()->name().data());
    return 0;
}

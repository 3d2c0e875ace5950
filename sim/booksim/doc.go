// Package booksim owns twintorus's reading of BookSim2 configuration files: their
// syntax, parsed as BookSim2 parses it (Parse), and their mapping onto our model
// (Map): a topology spec, a routing and deadlock scheme, a traffic pattern, an
// offered load and engine parameters.
//
// # Syntax
//
// BookSim2 reads its configuration with a flex lexer and a bison grammar
// (src/config.l, src/config.y) into three typed tables (src/config_utils.cpp). Parse
// follows them fact for fact:
//   - a file is one or more commands KEY = VALUE; (an empty file, or one with only
//     comments, is a syntax error, as the grammar needs a command);
//   - comments run from // to the end of the line; there is no other comment form;
//   - spaces, tabs and carriage returns separate tokens; newlines count lines;
//   - a value is a number, a name or a list. Integers are -?[0-9]+; reals have a point
//     or an exponent (0.5, .5, 1e5); names start with a letter, _, -, / or . and go on
//     with those, digits, +, parentheses, braces and commas, so hotspot({0,63}) is one
//     name; lists are {a,b,...} with no spaces inside (a space inside a list is a
//     syntax error, as in BookSim2);
//   - there is no quoting: a quote character is a syntax error;
//   - the longest token wins and, at equal length, the earlier rule of config.l
//     (-5 is an integer, -5a a name, 1e5 a real);
//   - every key is typed: an integer key takes an integer, a real key a real, a
//     string key a name or a list, and some keys take two of these (injection_rate
//     takes a real or a list of reals). A value of a type the key does not take is
//     refused, as BookSim2 refuses it (injection_rate = 1; is an error: write 1.0);
//   - an unknown key is refused; a key given again overrides the earlier value of the
//     same type.
//
// BookSim2 reports errors without a line for unknown keys and exits; Parse returns
// one line naming the file, the line and the key.
//
// # Mapping
//
// Map turns a parsed configuration into a Mapped point: every key BookSim2 knows is
// either mapped (its value becomes ours), accepted because BookSim2 ignores it in the
// configurations we map (debugging outputs, keys of batch or read/write modes we
// refuse), or refused by name unless it has BookSim2's default, with what we would
// need to model it. docs/booksim.md lists every key. The mapping puts BookSim2's
// router on our engine (the engine options of docs/booksim.md's "BookSim2's router,
// cycle by cycle": class VCs, iSLIP for VCs and the switch, its pipeline stages) and
// its traffic (messages to self, random ties); where our model still differs at
// settings we accept, Mapped.Notes says how. ReadOutput reads what BookSim2 prints, for
// the reference runs of datasets/booksim.
//
// The package knows BookSim2's facts only; it holds none of its code.
package booksim

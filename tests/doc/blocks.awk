# blocks.awk -- split a Markdown file into its code blocks, with the example marker of each.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: awk -f blocks.awk -v out=DIR -v name=DOCNAME -v first=N FILE
# Writes, for each code block of FILE (indented by four or more spaces
# after a blank line, or fenced with ```), numbered from N.  Four spaces
# are taken off each line of an indented block (a block in a list item
# keeps the rest of its indentation, so it is never a session):
#   DIR/NNNN.meta  "key<TAB>value" lines: doc (DOCNAME), line (where the
#                  block starts), kind ("session" if its first line starts
#                  with "$ ", else "plain"), then the marker's words, one
#                  per line ("counts<TAB>1", "setup<TAB>a,b", ...)
#   DIR/NNNN.body  the block, without its indentation and trailing blank
#                  lines
# A marker is a line <!-- example: WORDS --> followed, after blank lines
# only, by the block it describes; WORDS are "key", "key=value" or
# key="value with spaces".  A marker that is not followed by a block, or
# that cannot be parsed, gives a block of kind "error" whose "error" says
# why.  Prints the number of the next block.

function flush_block(    f, i, last) {
    if (nlines == 0)
        return
    last = nlines
    while (last > 0 && lines[last] ~ /^[ \t]*$/)
        last--
    f = sprintf("%s/%04d", out, nblock)
    printf "doc\t%s\nline\t%d\nkind\t%s\n", name, start,
           (lines[1] ~ /^\$ /) ? "session" : "plain" > (f ".meta")
    printf "%s", marker > (f ".meta")
    close(f ".meta")
    printf "" > (f ".body")
    for (i = 1; i <= last; i++)
        print lines[i] > (f ".body")
    close(f ".body")
    nblock++
    nlines = 0
    marker = ""
    have_marker = 0
}

function error_block(why,    f) {
    f = sprintf("%s/%04d", out, nblock)
    printf "doc\t%s\nline\t%d\nkind\terror\nerror\t%s\n", name, FNR, why > (f ".meta")
    close(f ".meta")
    printf "" > (f ".body")
    close(f ".body")
    nblock++
}

# parse_marker TEXT: the words of a marker as "key<TAB>value" lines, or ""
# with perr set.
function parse_marker(text,    res, key, val) {
    res = ""
    perr = ""
    while (text != "") {
        sub(/^[ \t]+/, "", text)
        if (text == "")
            break
        if (!match(text, /^[a-z]+/)) {
            perr = "bad word at '" text "'"
            return ""
        }
        key = substr(text, 1, RLENGTH)
        text = substr(text, RLENGTH + 1)
        val = "1"
        if (substr(text, 1, 2) == "=\"") {
            text = substr(text, 3)
            if (!match(text, /"/)) {
                perr = "unterminated quote after " key "="
                return ""
            }
            val = substr(text, 1, RSTART - 1)
            text = substr(text, RSTART + 1)
        } else if (substr(text, 1, 1) == "=") {
            text = substr(text, 2)
            match(text, /^[^ \t]*/)
            val = substr(text, 1, RLENGTH)
            text = substr(text, RLENGTH + 1)
        }
        if (text != "" && text !~ /^[ \t]/) {
            perr = "no space after " key
            return ""
        }
        res = res key "\t" val "\n"
    }
    return res
}

BEGIN { nblock = first + 0; nlines = 0; fence = ""; have_marker = 0 }

# Inside a fenced block.
fence != "" {
    if ($0 ~ /^ *```/) {
        flush_block()
        fence = ""
    } else {
        line = $0
        sub("^" fence_indent, "", line)
        lines[++nlines] = line
    }
    prev_blank = 0
    next
}

/^ *```/ {
    flush_block()
    match($0, /^ */)
    fence_indent = substr($0, 1, RLENGTH)
    fence = "```"
    start = FNR + 1
    prev_blank = 0
    next
}

# Inside an indented block: blank lines, or lines indented at least as
# much as its first line.
nlines > 0 {
    if ($0 ~ /^[ \t]*$/) {
        lines[++nlines] = ""
        next
    }
    if (substr($0, 1, indent) == sprintf("%" indent "s", "")) {
        lines[++nlines] = substr($0, indent + 1)
        next
    }
    flush_block()
}

/^<!-- example:.*-->[ \t]*$/ {
    if (have_marker)
        error_block("two markers in a row (the first is at line " marker_line ")")
    text = $0
    sub(/^<!-- example:/, "", text)
    sub(/-->[ \t]*$/, "", text)
    marker = parse_marker(text)
    if (perr != "") {
        error_block("bad marker: " perr)
        marker = ""
        have_marker = 0
    } else {
        have_marker = 1
        marker_line = FNR
    }
    prev_blank = 0
    next
}

/^    / && prev_blank {
    indent = 4
    start = FNR
    lines[++nlines] = substr($0, indent + 1)
    next
}

{
    blank = ($0 ~ /^[ \t]*$/)
    if (!blank && have_marker) {
        error_block("the marker of line " marker_line " is not followed by a code block")
        marker = ""
        have_marker = 0
    }
    prev_blank = blank
}

END {
    flush_block()
    if (have_marker)
        error_block("the marker of line " marker_line " is not followed by a code block")
    print nblock
}

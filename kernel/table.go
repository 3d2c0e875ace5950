package kernel

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"
)

// Row formats values with fmt's %v, for building table rows from numbers.
func Row(values ...any) []string {
	row := make([]string, len(values))
	for i, v := range values {
		row[i] = fmt.Sprint(v)
	}
	return row
}

// tableWidth is the number of columns: the widest of the header and the rows.
func tableWidth(headers []string, rows [][]string) int {
	w := len(headers)
	for _, r := range rows {
		w = max(w, len(r))
	}
	return w
}

// cell returns row[i], or "" past the end of a short row.
func cell(row []string, i int) string {
	if i < len(row) {
		return row[i]
	}
	return ""
}

// TableHTML renders headers and rows as an HTML table; every cell is escaped.
// The header row is omitted when headers is empty.
func TableHTML(headers []string, rows [][]string) string {
	w := tableWidth(headers, rows)
	var b strings.Builder
	b.WriteString(`<table class="twintorus-table">`)
	if len(headers) > 0 {
		b.WriteString("<thead><tr>")
		for i := 0; i < w; i++ {
			b.WriteString("<th>" + html.EscapeString(cell(headers, i)) + "</th>")
		}
		b.WriteString("</tr></thead>")
	}
	b.WriteString("<tbody>")
	for _, r := range rows {
		b.WriteString("<tr>")
		for i := 0; i < w; i++ {
			b.WriteString("<td>" + html.EscapeString(cell(r, i)) + "</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

// TableText renders headers and rows as left-aligned text columns, with a dashed line
// under the header, ending in a newline.
func TableText(headers []string, rows [][]string) string {
	w := tableWidth(headers, rows)
	if w == 0 {
		return ""
	}
	widths := make([]int, w)
	measure := func(r []string) {
		for i := 0; i < w; i++ {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell(r, i)))
		}
	}
	measure(headers)
	for _, r := range rows {
		measure(r)
	}
	var b strings.Builder
	line := func(r []string) {
		var l strings.Builder
		for i := 0; i < w; i++ {
			if i > 0 {
				l.WriteString("  ")
			}
			c := cell(r, i)
			l.WriteString(c + strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)))
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	if len(headers) > 0 {
		line(headers)
		dashes := make([]string, w)
		for i, n := range widths {
			dashes[i] = strings.Repeat("-", n)
		}
		line(dashes)
	}
	for _, r := range rows {
		line(r)
	}
	return b.String()
}

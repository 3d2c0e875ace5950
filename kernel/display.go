package kernel

import (
	"io"
	"os"

	"github.com/janpfeifer/gonb/gonbui"
)

// Notebook is the rich-output side of a Screen: gonb's display calls. Tests use a
// recorder in its place.
type Notebook interface {
	DisplayHTML(html string)
	// UpdateHTML shows html in the output block named id, creating it on the first
	// call and replacing its content afterwards.
	UpdateHTML(id, html string)
	DisplayPNG(png []byte)
	DisplaySVG(svg string)
}

// Screen is where cell helpers show things. With a Notebook they show rich output;
// without one, tables go to Text and progress lines to Status as plain text.
// Any nil field means "drop that output".
type Screen struct {
	Notebook Notebook
	Text     io.Writer
	Status   io.Writer
}

// Default returns the screen of the running program: the notebook when gonb runs the
// cell, otherwise plain text on stdout (tables) and stderr (progress).
func Default() *Screen {
	if gonbui.IsNotebook {
		return &Screen{Notebook: gonbNotebook{}}
	}
	return &Screen{Text: os.Stdout, Status: os.Stderr}
}

// IsNotebook reports whether the program runs as a gonb notebook cell.
func IsNotebook() bool { return gonbui.IsNotebook }

// HTML shows an HTML fragment in the notebook; outside one it does nothing.
func (s *Screen) HTML(html string) {
	if s.Notebook != nil {
		s.Notebook.DisplayHTML(html)
	}
}

// PNG shows an encoded PNG image in the notebook; outside one it does nothing.
func (s *Screen) PNG(png []byte) {
	if s.Notebook != nil && len(png) > 0 {
		s.Notebook.DisplayPNG(png)
	}
}

// SVG shows an SVG document in the notebook; outside one it does nothing.
func (s *Screen) SVG(svg string) {
	if s.Notebook != nil && svg != "" {
		s.Notebook.DisplaySVG(svg)
	}
}

// Table shows headers and rows as an HTML table in the notebook, or as aligned text
// outside one. Rows shorter than the header are padded; longer rows widen the table.
func (s *Screen) Table(headers []string, rows [][]string) {
	if s.Notebook != nil {
		s.Notebook.DisplayHTML(TableHTML(headers, rows))
		return
	}
	if s.Text != nil {
		_, _ = io.WriteString(s.Text, TableText(headers, rows))
	}
}

// HTML shows an HTML fragment on the default screen.
func HTML(html string) { Default().HTML(html) }

// PNG shows an encoded PNG image on the default screen.
func PNG(png []byte) { Default().PNG(png) }

// SVG shows an SVG document on the default screen.
func SVG(svg string) { Default().SVG(svg) }

// Table shows a table on the default screen.
func Table(headers []string, rows [][]string) { Default().Table(headers, rows) }

// gonbNotebook sends output to the gonb kernel running the cell.
type gonbNotebook struct{}

func (gonbNotebook) DisplayHTML(html string)    { gonbui.DisplayHtml(html) }
func (gonbNotebook) UpdateHTML(id, html string) { gonbui.UpdateHtml(id, html) }
func (gonbNotebook) DisplayPNG(png []byte)      { gonbui.DisplayPng(png) }
func (gonbNotebook) DisplaySVG(svg string)      { gonbui.DisplaySvg(svg) }

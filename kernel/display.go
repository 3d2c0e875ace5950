package kernel

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
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
	// DisplayChart shows one output in two forms: html where the front end runs
	// scripts, png where it does not.
	DisplayChart(html string, png []byte)
}

// Screen is where cell helpers show things. With a Notebook they show rich output;
// without one, tables go to Text and progress lines to Status as plain text.
// Any nil field means "drop that output".
type Screen struct {
	Notebook Notebook
	Text     io.Writer
	Status   io.Writer
	// Library, when set, says whether a chart shown now must carry the ECharts script
	// (see Show); nil asks the running kernel.
	Library func() bool
	// Front is where Explore's controls live; nil: Explore shows static pictures.
	Front Front
}

// Default returns the screen of the running program: the notebook when gonb runs the
// cell, otherwise plain text on stdout (tables) and stderr (progress).
func Default() *Screen {
	if gonbui.IsNotebook {
		s := &Screen{Notebook: gonbNotebook{}, Front: gonbFront{}}
		if os.Getenv(NoControlsEnv) == "1" {
			s.Front = nil
		}
		return s
	}
	return &Screen{Text: os.Stdout, Status: os.Stderr}
}

// NoControlsEnv names the variable that says no browser runs the notebook (set to 1
// by scripts/run-notebooks.sh, which executes notebooks with nbconvert): Explore then
// shows its static picture at once, without asking gonb to open its connection to a
// browser. Asking would wait for gonb to give up (3 s), and leave gonb's connection
// script in the saved output.
const NoControlsEnv = "TWINTORUS_NO_CONTROLS"

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

// gonbNotebook sends output to the gonb kernel running the cell. Each display waits
// for what the program wrote to stdout to be read by gonb, and then for gonb to have
// handled the display itself (gonbui.Sync):
//
//   - gonb reads stdout and the display channel on two goroutines and publishes each
//     as it reads it, so a line printed just before a table could follow it; waiting
//     until the stdout pipe is empty, then a little longer (display), keeps program
//     order;
//   - when the program exits, gonb closes the display channel at once, dropping
//     whatever it has not read yet: a 1 MB chart sent last was lost. After Sync,
//     nothing is in flight.
type gonbNotebook struct{}

func (gonbNotebook) DisplayHTML(html string) {
	display(map[protocol.MIMEType]any{protocol.MIMETextHTML: html}, "")
}

func (gonbNotebook) UpdateHTML(id, html string) {
	display(map[protocol.MIMEType]any{protocol.MIMETextHTML: html}, id)
}

func (gonbNotebook) DisplayPNG(png []byte) {
	display(map[protocol.MIMEType]any{protocol.MIMEImagePNG: png}, "")
}

// DisplaySVG shows the SVG inline in HTML, as gonbui does: Jupyter's HTML export
// drops image/svg+xml outputs.
func (gonbNotebook) DisplaySVG(svg string) {
	display(map[protocol.MIMEType]any{protocol.MIMETextHTML: "<div>" + svg + "</div>"}, "")
}

func (gonbNotebook) DisplayChart(html string, png []byte) {
	display(map[protocol.MIMEType]any{protocol.MIMETextHTML: html, protocol.MIMEImagePNG: png}, "")
}

// Bounds on the waits around a display: a kernel that stopped answering delays a
// cell, it does not hang it.
const (
	stdoutWait   = 2 * time.Second
	stdoutSettle = 2 * time.Millisecond
	syncWait     = 10 * time.Second
)

func display(data map[protocol.MIMEType]any, id string) {
	// An empty stdout pipe means gonb has read the program's last line, not that it
	// has published it: it publishes in the goroutine that read it, while its display
	// goroutine may publish this display first (a line printed before a table came
	// after it in a CI run). A short settle and a round trip through gonb's display
	// goroutine give that publish the time to finish. A kernel that does not answer
	// still gets the display, and delays the cell by one syncWait, not two.
	waitRead(os.Stdout, stdoutWait)
	time.Sleep(stdoutSettle)
	answered := syncNotebook()
	gonbui.SendData(&protocol.DisplayData{Data: data, DisplayID: id})
	if answered {
		syncNotebook()
	}
}

// syncNotebook waits, up to syncWait, until gonb has handled every display sent so
// far (gonbui.Sync), and reports whether it answered.
func syncNotebook() bool {
	done := make(chan struct{})
	go func() {
		gonbui.Sync()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(syncWait):
		fmt.Fprintln(os.Stderr, "kernel: the notebook did not confirm a display within", syncWait)
		return false
	}
}

// waitRead waits, up to timeout, until everything written to f (a pipe) has been
// read from it. It returns at once when f is not a pipe or the system cannot tell.
func waitRead(f *os.File, timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for {
		n, ok := unread(f)
		if !ok || n == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(100 * time.Microsecond)
	}
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/chesspuzzles/chesspuzzles/queens"
	"github.com/chesspuzzles/chesspuzzles/render"
	"github.com/spf13/cobra"
)

func newQueensBrowseCmd() *cobra.Command {
	return command(&cobra.Command{
		Use:   "browse N",
		Short: "Browse the solutions of the N×N board in the terminal",
		Long: `Browse the solutions of the N×N board in the terminal: the list on the left, the
selected solution drawn on the right. ↑/↓ (or k/j) move, PgUp/PgDn a screen, Home (g) the
first, End (G) the last (of the first 100,000 past N = 12); u shows only fundamental solutions
(or all again), staying on the selected solution (or its fundamental form, and back on the
solution itself when u is pressed again); q quits, Ctrl-C quits with exit status 130. Solutions are listed lazily, a
page at a time, so even N = 16 opens at once. Colours follow NO_COLOR.`,
		Example: `  chesspuzzles queens browse 8
  chesspuzzles queens browse 16 --unique`,
		Args: exactArgs(1, "one argument, the board size N"),
	}, func(cmd *cobra.Command, opts *browseOptions) {
		cmd.Flags().BoolVar(&opts.unique, "unique", false, "start with only the fundamental solutions")
	}, func(cmd *cobra.Command, opts *browseOptions, args []string) error {
		var err error
		if opts.n, err = parseN(args[0], maxBrowseN); err != nil {
			return err
		}
		return runBrowse(cmd.Context(), *opts, cmd.InOrStdin(), cmd.OutOrStdout())
	})
}

// browseOptions are the options of "queens browse".
type browseOptions struct {
	n      int
	unique bool
}

// maxBrowseN is the largest board the browser shows: its Unicode board must fit a terminal.
const maxBrowseN = 32

// browsePage is how many solutions the browser lists at a time. Each page starts right
// after the last solution shown (queens.ListOptions.After), so it costs the same at any
// depth and N = 16 opens at once.
const browsePage = 200

func runBrowse(ctx context.Context, opts browseOptions, stdin io.Reader, stdout io.Writer) error {
	if !isTerminal(stdout) {
		return usageErrorf("queens browse needs a terminal; use queens solve to list solutions into a pipe or file")
	}
	m := newBrowseModel(ctx, opts.n, opts.unique, render.ColorAllowed())
	_, err := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(stdin), tea.WithOutput(stdout)).Run()
	if m.interrupted || ctx.Err() != nil {
		// Ctrl-C, as a key in the terminal's raw mode or as a signal: the browser has
		// nothing to save, and ends as every interrupted command does.
		return &exitError{code: exitInterrupted, err: errors.New("interrupted")}
	}
	return err
}

// browseModel is the state of the browser. Update and View are pure functions of it and
// the message, so tests drive it without a terminal.
type browseModel struct {
	ctx    context.Context
	n      int
	unique bool
	color  bool
	items  []queens.Placement // the solutions listed so far, in code order
	done   bool               // the listing has no more
	cursor int                // index of the selected solution
	top    int                // index of the first line of the list on screen
	height int                // lines of list on screen
	width  int                // columns of the screen
	// before is the solution selected when u switched to the fundamental ones: switching
	// back returns to it while the selection is still its fundamental form.
	before queens.Placement
	err    error
	// interrupted is set by Ctrl-C, which ends the program with exit status 130.
	interrupted bool
}

func newBrowseModel(ctx context.Context, n int, unique, color bool) *browseModel {
	m := &browseModel{ctx: ctx, n: n, unique: unique, color: color, height: 20, width: 80}
	m.more()
	return m
}

// more lists the next page of solutions, after the last one listed.
func (m *browseModel) more() {
	if m.done {
		return
	}
	opts := queens.ListOptions{Fundamental: m.unique}
	if len(m.items) > 0 {
		opts.After = m.items[len(m.items)-1]
	}
	got := 0
	for p := range queens.List(m.ctx, m.n, opts) {
		m.items = append(m.items, p.Clone())
		if got++; got == browsePage {
			return
		}
	}
	if err := m.ctx.Err(); err != nil {
		m.err = err
	}
	m.done = true
}

func (m *browseModel) Init() tea.Cmd { return nil }

func (m *browseModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width = max(1, msg.Width)
		// The title and a blank line above the list, a blank line and the footer below.
		m.height = max(3, msg.Height-3-strings.Count(m.footer(), "\n"))
		m.move(0) // keep the selection on screen
	case tea.KeyPressMsg:
		switch msg.String() {
		case "ctrl+c":
			m.interrupted = true
			return m, tea.Quit
		case "q", "esc":
			return m, tea.Quit
		case "down", "j":
			m.move(1)
		case "up", "k":
			m.move(-1)
		case "pgdown", "space":
			m.move(m.height)
		case "pgup":
			m.move(-m.height)
		case "home", "g":
			m.move(-m.cursor)
		case "end", "G":
			m.end()
		case "u":
			m.toggleUnique()
		}
	}
	return m, nil
}

// keepListing bounds how far toggleUnique lists to find the solution it stays on: far
// enough for every board up to N = 12 and for the first pages of any N, a fraction of a
// second.
const keepListing = 100_000

// toggleUnique switches between all and fundamental solutions and stays on the selected
// solution: the same one when it is in the new list (every fundamental solution is a
// solution), its canonical form when going to the fundamental ones. The lists are in code
// order, so the listing runs up to it; if it lies beyond keepListing solutions the
// selection is the last one listed before it.
func (m *browseModel) toggleUnique() {
	var target queens.Placement
	if m.cursor < len(m.items) {
		target = m.items[m.cursor]
		switch {
		case !m.unique:
			m.before = target
			target = queens.Canonical(target)
		case m.before != nil && queens.Canonical(m.before).Compare(target) == 0:
			target = m.before // back where u was pressed
		}
	}
	m.unique = !m.unique
	m.items, m.done, m.cursor, m.top = nil, false, 0, 0
	m.more()
	if target == nil || len(m.items) == 0 {
		return
	}
	for !m.done && len(m.items) < keepListing && m.items[len(m.items)-1].Compare(target) < 0 {
		m.more()
	}
	i, _ := slices.BinarySearchFunc(m.items, target, queens.Placement.Compare)
	if i == len(m.items) || m.items[i].Compare(target) != 0 {
		i-- // not listed: the last one before it
	}
	m.top = max(0, i-m.height/2)
	m.move(max(0, i))
}

// end selects the last solution: the listing runs to its end, or to keepListing
// solutions when it is longer (past N = 12), the last of them then.
func (m *browseModel) end() {
	for !m.done && len(m.items) < keepListing {
		m.more()
	}
	m.move(len(m.items) - 1 - m.cursor)
}

// move moves the selection by d, listing more solutions when it nears the end of those
// listed, and scrolls the list to keep it on screen.
func (m *browseModel) move(d int) {
	c := m.cursor + d
	for c >= len(m.items)-m.height && !m.done {
		m.more()
	}
	m.cursor = max(0, min(c, len(m.items)-1))
	if m.cursor < m.top {
		m.top = m.cursor
	}
	if m.cursor >= m.top+m.height {
		m.top = m.cursor - m.height + 1
	}
}

func (m *browseModel) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	return v
}

// render draws the screen: a title line, the list and the board side by side, and a key
// line.
func (m *browseModel) render() string {
	var b strings.Builder
	kind := "solutions"
	if m.unique {
		kind = "fundamental solutions"
	}
	count := ""
	if c, ok := queens.Known(m.n); ok {
		if m.unique {
			count = c.Unique.String() + " "
		} else {
			count = c.Total.String() + " "
		}
	}
	title := fmt.Sprintf("%d queens: %s%s", m.n, count, kind)
	bold := lipgloss.NewStyle().Bold(true)
	if !m.color {
		bold = lipgloss.NewStyle()
	}
	b.WriteString(bold.Render(title) + "\n\n")
	if len(m.items) == 0 {
		fmt.Fprintf(&b, "The %d×%d board has no %s.\n", m.n, m.n, kind)
		if m.err != nil {
			fmt.Fprintf(&b, "(%v)\n", m.err)
		}
		b.WriteString("\n" + wrapParts(m.width, "u all/fundamental", "q quit"))
		return b.String()
	}
	width := len(strconv.Itoa(m.top+m.height)) + 2 + len(m.items[0].Format(queens.Code))
	var list []string
	for i := m.top; i < min(m.top+m.height, len(m.items)); i++ {
		line := fmt.Sprintf("%*d  %s", len(strconv.Itoa(m.top+m.height)), i+1, m.items[i].Format(queens.Code))
		line += strings.Repeat(" ", max(0, width-len([]rune(line))))
		if i == m.cursor {
			if m.color {
				line = lipgloss.NewStyle().Reverse(true).Render(line)
			} else {
				line = "> " + line
			}
		} else if !m.color {
			line = "  " + line
		}
		list = append(list, line)
	}
	var board strings.Builder
	p := m.items[m.cursor]
	render.QueensText(&board, p.Position(), render.TextOptions{Unicode: true, Color: m.color})
	left := lipgloss.NewStyle().MarginRight(3).Render(strings.Join(list, "\n"))
	b.WriteString(lipgloss.JoinHorizontal(lipgloss.Top, left, board.String()))
	of := strconv.Itoa(len(m.items))
	if !m.done {
		of = "more than " + of
		if count != "" {
			of = strings.TrimSpace(count)
		}
	}
	b.WriteString("\n\n")
	b.WriteString(m.footer(fmt.Sprintf("solution %d of %s", m.cursor+1, of)))
	return b.String()
}

// footer is the key line under the list, wrapped to the screen, after where (the
// selection's place); without it, as wide as it can get.
func (m *browseModel) footer(where ...string) string {
	if len(where) == 0 {
		where = []string{fmt.Sprintf("solution %d of more than %d", keepListing, keepListing)}
	}
	return wrapParts(m.width, append(where, "↑↓ move", "PgUp/PgDn", "Home/End", "u all/fundamental", "q quit")...)
}

// wrapParts joins parts with " · " into lines of at most width columns, breaking between
// parts (a part wider than the screen has a line of its own), each line ended by a newline.
func wrapParts(width int, parts ...string) string {
	var b strings.Builder
	line := 0
	for i, p := range parts {
		w := lipgloss.Width(p)
		switch {
		case i == 0:
		case line+3+w <= width:
			b.WriteString(" · ")
			line += 3
		default:
			b.WriteString("\n")
			line = 0
		}
		b.WriteString(p)
		line += w
	}
	b.WriteString("\n")
	return b.String()
}

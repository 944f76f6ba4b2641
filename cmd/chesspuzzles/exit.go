package main

import "fmt"

// Exit codes, as shared by every command.
const (
	exitOK          = 0
	exitNo          = 1 // the answer is "no", or a run-time failure
	exitUsage       = 2
	exitUndecided   = 3
	exitInterrupted = 130
)

// exitError carries an exit code. A nil err means the command has already said everything
// on stdout and only the exit code is left to give.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErrorf reports bad input: exit 2.
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// usageError marks err as bad input: exit 2.
func usageError(err error) error { return &exitError{code: exitUsage, err: err} }

// answerNo ends a command whose answer is "no" with exit 1; err, if not nil, is printed.
func answerNo(err error) error { return &exitError{code: exitNo, err: err} }

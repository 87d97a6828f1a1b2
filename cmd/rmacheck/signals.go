package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// interrupted is the cause of a run stopped by SIGINT or SIGTERM.
type interrupted struct{ sig os.Signal }

func (e *interrupted) Error() string {
	switch e.sig {
	case syscall.SIGINT:
		return "interrupted by SIGINT"
	case syscall.SIGTERM:
		return "interrupted by SIGTERM"
	}
	return fmt.Sprintf("interrupted (%v)", e.sig)
}

// interruptible returns a context that the first SIGINT or SIGTERM cancels, with an
// *interrupted cause, and the function that stops listening. Commands that start MPI
// processes use it: the launcher runs in a process group of its own, which a terminal's
// Ctrl-C does not reach, so rmacheck must stop it, remove its files and exit itself. A
// second signal has its default effect.
func interruptible() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signal.Stop(ch)
			cancel(&interrupted{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// interruptedExit is the exit status of a command stopped by a signal, 128 plus the
// signal's number as a shell reports it (130 for SIGINT, 143 for SIGTERM), with the
// message; ok is false when err is no interruption.
func interruptedExit(err error) (exit error, ok bool) {
	var in *interrupted
	if !errors.As(err, &in) {
		return nil, false
	}
	code := 128 + 2
	if s, isSys := in.sig.(syscall.Signal); isSys {
		code = 128 + int(s)
	}
	return exitError{code: code, err: fmt.Errorf("%v: the MPI processes were stopped and the temporary files removed", in)}, true
}

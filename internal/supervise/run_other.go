//go:build !unix

package supervise

import (
	"context"
	"os/exec"
	"time"
)

// Run runs argv and kills it when ctx ends or its output passes OutputCap (no
// process groups here).
func Run(ctx context.Context, argv, env []string) (stdout, stderr []byte, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = environ(env)
	out, errb := newCapture(OutputCap), newCapture(OutputCap)
	cmd.Stdout, cmd.Stderr = out, errb
	cmd.WaitDelay = time.Second
	go func() {
		select {
		case <-out.over:
		case <-errb.over:
		case <-ctx.Done():
		}
		cancel()
	}()
	err = cmd.Run()
	if out.Overflowed() || errb.Overflowed() {
		err = ErrOutputCap
	}
	return out.Bytes(), errb.Bytes(), err
}

//go:build !unix

package conform

import (
	"bytes"
	"context"
	"os/exec"
	"time"
)

// runGroup runs argv and kills it when ctx ends (no process groups here).
func runGroup(ctx context.Context, argv, env []string) (stdout, stderr []byte, err error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	return out.Bytes(), errb.Bytes(), err
}

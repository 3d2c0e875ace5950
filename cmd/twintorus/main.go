// Command twintorus analyses and simulates interconnection networks: nDT twin tori,
// tori and meshes. Run `twintorus help` for the commands.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := newRoot().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "twintorus:", err)
		os.Exit(1)
	}
}

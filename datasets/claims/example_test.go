package claims_test

import (
	"context"
	"fmt"

	"github.com/twintorus/twintorus/datasets/claims"
)

// A notebook shows one paper's claims (or its own: claims.Notebook) as a table; here
// the deadlock paper's, on the stored runs of the 3DT-versus-2D experiments.
func ExampleTable() {
	h, rows, err := claims.Table(context.Background(), claims.Paper("[DL]"))
	if err != nil {
		panic(err)
	}
	_ = h // a notebook cell shows the table: kernel.Table(h, rows); here, each verdict:
	for _, r := range rows {
		fmt.Println(r[3])
	}
	// Output:
	// holds
	// holds (the percentage-points reading fits: relative +26 %: does not hold; points +5.2 pp: holds)
	// holds
}

package parquetfile

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"

	"github.com/twintorus/twintorus/sim/experiment"
)

// Write writes records as a Parquet file: the rows experiment.WriteCSV writes, in its
// order, with the same column names.
func Write(w io.Writer, records []experiment.Record) error {
	if err := parquet.Write(w, experiment.Rows(records)); err != nil {
		return fmt.Errorf("write Parquet: %w", err)
	}
	return nil
}

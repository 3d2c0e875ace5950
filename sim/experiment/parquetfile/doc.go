// Package parquetfile writes a sweep's records as a Parquet file: the rows of
// experiment.Rows, with the columns experiment.Columns names, as `twintorus collect
// --parquet` writes them.
//
// It is a package of its own so that what imports package experiment (every notebook
// cell, through package figures) does not link the Parquet library: it took a third
// of a cell's binary and of its link time.
package parquetfile

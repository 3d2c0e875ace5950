// Package userfile opens the files a user names (network files, routing tables, specs,
// traces, a results store's records) for reading. It refuses anything that is not a
// regular file, without blocking on it: a named pipe would block its open until a
// writer came, and a device such as /dev/zero would be read without end. Whole-file
// reads take a size limit, checked before anything is read.
package userfile

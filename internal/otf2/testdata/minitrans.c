/*
 * minitrans: a small MPI program for the recorder's tests, in the manner of HPCC's
 * PTRANS (a block transpose over a square process grid, with row and column
 * communicators) plus the other calls the recorder must see: blocking and
 * non-blocking point-to-point, Sendrecv, receives out of tag order and from
 * MPI_ANY_SOURCE, completions by Waitall, Waitany and Test, and collectives on the
 * world and on sub-communicators. It runs on a square number of ranks (16 in the
 * tests) in well under a second and prints nothing unless something is wrong.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void spin(double seconds)
{
	double t = MPI_Wtime();
	while (MPI_Wtime() - t < seconds)
		;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int q = 1;
	while ((q + 1) * (q + 1) <= size)
		q++;
	if (q * q != size) {
		if (rank == 0)
			fprintf(stderr, "minitrans: %d ranks is not a square\n", size);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	int row = rank / q, col = rank % q;
	MPI_Comm rows, cols;
	MPI_Comm_split(MPI_COMM_WORLD, row, col, &rows);
	MPI_Comm_split(MPI_COMM_WORLD, col, row, &cols);

	enum { B = 1000 }; /* doubles in a block: 8000 bytes */
	double *a = malloc(sizeof(double) * B), *t = malloc(sizeof(double) * B);
	for (int i = 0; i < B; i++)
		a[i] = rank * B + i;

	/* Two transposes: the block of (row, col) goes to (col, row). */
	int partner = col * q + row;
	for (int iter = 0; iter < 2; iter++) {
		spin(0.001);
		if (partner != rank) {
			MPI_Request r[2];
			MPI_Irecv(t, B, MPI_DOUBLE, partner, 7, MPI_COMM_WORLD, &r[0]);
			MPI_Isend(a, B, MPI_DOUBLE, partner, 7, MPI_COMM_WORLD, &r[1]);
			MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
		}
		/* The row's leader broadcasts a check value; the column sums it. */
		double v = rank, s = 0;
		MPI_Bcast(&v, 1, MPI_DOUBLE, 0, rows);
		MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, cols);
	}

	/* A ring shift with Sendrecv over the row communicator (peers are row ranks). */
	int right = (col + 1) % q, left = (col + q - 1) % q;
	MPI_Sendrecv(a, 100, MPI_DOUBLE, right, 3, t, 100, MPI_DOUBLE, left, 3, rows, MPI_STATUS_IGNORE);

	/* Out of tag order: rank 0 sends tags 1 then 2 to rank 1, which takes 2 first. */
	if (rank == 0) {
		MPI_Send(a, 10, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
		MPI_Send(a, 20, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Request r;
		int done = 0;
		MPI_Irecv(t, 20, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, &r);
		while (!done)
			MPI_Test(&r, &done, MPI_STATUS_IGNORE);
		MPI_Recv(t, 10, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}

	/* Everyone reports to rank 0, received from MPI_ANY_SOURCE with Waitany. */
	if (rank == 0) {
		MPI_Request *r = malloc(sizeof(MPI_Request) * size);
		int *got = malloc(sizeof(int) * size);
		for (int i = 1; i < size; i++)
			MPI_Irecv(&got[i], 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &r[i - 1]);
		for (int i = 1; i < size; i++) {
			int idx;
			MPI_Waitany(size - 1, r, &idx, MPI_STATUS_IGNORE);
		}
		free(r);
		free(got);
	} else {
		spin(0.0002 * rank);
		MPI_Ssend(&rank, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
	}

	/* World collectives. */
	double *all = malloc(sizeof(double) * 16 * size);
	MPI_Alltoall(a, 16, MPI_DOUBLE, all, 16, MPI_DOUBLE, MPI_COMM_WORLD);
	MPI_Reduce(a, t, 64, MPI_DOUBLE, MPI_SUM, 3, MPI_COMM_WORLD);
	MPI_Gather(a, 8, MPI_DOUBLE, all, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Scan(a, t, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

	free(all);
	free(a);
	free(t);
	MPI_Comm_free(&rows);
	MPI_Comm_free(&cols);
	MPI_Finalize();
	return 0;
}

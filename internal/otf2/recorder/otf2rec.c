/*
 * otf2rec: a PMPI interposition library that records an MPI program's point-to-point
 * messages and collectives as an OTF2 archive, with OTF2's standard MPI records, so that
 * any OTF2 reader (otf2-print, Vampir, twintorus trace import) understands it.
 *
 * Preloaded into an unmodified program (LD_PRELOAD=otf2rec.so mpirun ... or mpirun -x
 * LD_PRELOAD=...), it writes to $TWINTORUS_OTF2_DIR (default ./twintorus-otf2):
 *   traces.otf2, traces.def, traces/  the OTF2 archive (anchor file traces.otf2);
 *   summary.txt                        the counts it saw, independent of OTF2.
 * TWINTORUS_OTF2_WINDOW=FROM:TO records only between the FROM-th and the TO-th
 * MPI_Barrier on MPI_COMM_WORLD (one phase of a program); TWINTORUS_OTF2_LOG_BARRIERS=FILE
 * makes rank 0 append "otf2rec: world barrier K" to FILE at each, to number them.
 *
 * Every wrapped call is an Enter/Leave of its MPI region. Point-to-point: MpiSend at a
 * blocking send's start, MpiRecv at a blocking receive's end, MpiIsend at the post and
 * MpiIsendComplete at the completion of a non-blocking send, MpiIrecvRequest at the
 * post and MpiIrecv at the completion of a non-blocking receive (from the status that
 * completes it, through any of Wait/Waitall/Waitany/Waitsome/Test/Testall/Testany/
 * Testsome). Peers are ranks in the communicator; every communicator gets a Comm
 * definition whose group lists its members' MPI_COMM_WORLD ranks. Collectives:
 * MpiCollectiveBegin and MpiCollectiveEnd with the operation, communicator, root and
 * this rank's bytes sent and received (count times type size of its own buffers).
 */
#include <mpi.h>
#include <otf2/otf2.h>
#include <otf2/OTF2_MPI_Collectives.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <sys/stat.h>

/* The MPI regions, in the order of their region definitions. */
enum {
	R_SEND, R_SSEND, R_BSEND, R_RSEND, R_ISEND, R_ISSEND, R_IRSEND, R_IBSEND, R_RECV, R_IRECV,
	R_SENDRECV, R_SENDRECV_REPLACE, R_WAIT, R_WAITALL, R_WAITANY, R_WAITSOME, R_TEST,
	R_TESTALL, R_TESTANY, R_TESTSOME, R_BARRIER, R_BCAST, R_REDUCE, R_ALLREDUCE,
	R_GATHER, R_GATHERV, R_SCATTER, R_SCATTERV, R_ALLGATHER, R_ALLGATHERV, R_ALLTOALL,
	R_ALLTOALLV, R_REDUCE_SCATTER, R_SCAN, R_EXSCAN, R_COMM_SPLIT, R_COMM_DUP,
	R_COMM_CREATE, R_CART_CREATE, R_CART_SUB, R_COMM_SPLIT_TYPE, R_COUNT
};
static const char *region_names[R_COUNT] = {
	"MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Isend", "MPI_Issend", "MPI_Irsend",
	"MPI_Ibsend", "MPI_Recv", "MPI_Irecv", "MPI_Sendrecv", "MPI_Sendrecv_replace", "MPI_Wait",
	"MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test", "MPI_Testall", "MPI_Testany",
	"MPI_Testsome", "MPI_Barrier", "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Gather",
	"MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv", "MPI_Allgather", "MPI_Allgatherv",
	"MPI_Alltoall", "MPI_Alltoallv", "MPI_Reduce_scatter", "MPI_Scan", "MPI_Exscan",
	"MPI_Comm_split", "MPI_Comm_dup", "MPI_Comm_create", "MPI_Cart_create", "MPI_Cart_sub",
	"MPI_Comm_split_type"};

/* The recorder's state, one per process (MPI processes are single-threaded here). */
static OTF2_Archive *archive;
static OTF2_EvtWriter *evt;
static int active;  /* the archive is open: between MPI_Init and MPI_Finalize */
static int recording = 1; /* inside the window of world barriers (TWINTORUS_OTF2_WINDOW) */
static long window_from = 0, window_to = -1; /* record from world barrier from to barrier to (-1: the end) */
static long world_barriers;                  /* MPI_Barrier calls on MPI_COMM_WORLD so far */
static int log_barriers;                     /* TWINTORUS_OTF2_LOG_BARRIERS: rank 0 appends each to that file */
static char barrier_log[4096];
static int in_tool; /* inside the recorder's own MPI calls: pass through */
static int world_rank, world_size;
static uint64_t nevents, next_request;
static char outdir[4096];

/* Counts written to summary.txt. */
static uint64_t c_sends, c_send_bytes, c_recvs, c_recv_bytes, c_colls, c_coll_sent, c_coll_recvd;

static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void fail(const char *what)
{
	fprintf(stderr, "otf2rec (rank %d): %s\n", world_rank, what);
	PMPI_Abort(MPI_COMM_WORLD, 1);
}

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *c, bool final)
{
	(void)u; (void)ft; (void)l; (void)c; (void)final;
	return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l)
{
	(void)u; (void)ft; (void)l;
	return now();
}
static OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush, .otf2_post_flush = post_flush};

/* Communicators: the handle, its id in the archive and its members' world ranks. */
struct comm {
	MPI_Comm handle;
	uint32_t id;
	int size;
	int *members;
};
static struct comm *comms;
static int ncomms, capcomms;
static uint32_t comm_counter; /* communicators this process created as their rank 0 */

static struct comm *find_comm(MPI_Comm c)
{
	for (int i = ncomms - 1; i >= 0; i--)
		if (comms[i].handle == c)
			return &comms[i];
	return NULL;
}

/* add_comm records a new communicator: its rank 0 names it (a number unique to that
 * process, so unique over the program) and broadcasts the name to the others. */
static void add_comm(MPI_Comm c, uint32_t fixed_id)
{
	if (c == MPI_COMM_NULL)
		return;
	int inter = 0;
	PMPI_Comm_test_inter(c, &inter);
	if (inter)
		return; /* intercommunicators are not recorded: their messages count as unknown */
	in_tool++;
	uint32_t id = fixed_id;
	int rank;
	PMPI_Comm_rank(c, &rank);
	if (id == UINT32_MAX) {
		if (rank == 0)
			id = 2 + (((uint32_t)world_rank << 12) | (comm_counter++ & 0xfff));
		PMPI_Bcast(&id, 1, MPI_UINT32_T, 0, c);
	}
	MPI_Group g, wg;
	int size;
	PMPI_Comm_size(c, &size);
	PMPI_Comm_group(c, &g);
	PMPI_Comm_group(MPI_COMM_WORLD, &wg);
	int *ranks = malloc(sizeof(int) * size), *members = malloc(sizeof(int) * size);
	for (int i = 0; i < size; i++)
		ranks[i] = i;
	PMPI_Group_translate_ranks(g, size, ranks, wg, members);
	PMPI_Group_free(&g);
	PMPI_Group_free(&wg);
	free(ranks);
	in_tool--;
	struct comm *old = find_comm(c); /* a freed handle given again */
	if (old) {
		old->handle = MPI_COMM_NULL;
	}
	if (ncomms == capcomms) {
		capcomms = capcomms ? 2 * capcomms : 16;
		comms = realloc(comms, sizeof(struct comm) * capcomms);
	}
	comms[ncomms++] = (struct comm){c, id, size, members};
}

/* comm_id is the archive's id of communicator c; UINT32_MAX (OTF2_UNDEFINED_COMM) for
 * one not recorded. */
static uint32_t comm_id(MPI_Comm c)
{
	struct comm *k = find_comm(c);
	return k ? k->id : OTF2_UNDEFINED_COMM;
}

static void enter(int r)
{
	OTF2_EvtWriter_Enter(evt, NULL, now(), r);
	nevents++;
}
static void leave(int r)
{
	OTF2_EvtWriter_Leave(evt, NULL, now(), r);
	nevents++;
}

static uint64_t type_bytes(int count, MPI_Datatype t)
{
	int size = 0;
	if (t == MPI_DATATYPE_NULL || count <= 0)
		return 0;
	PMPI_Type_size(t, &size);
	return (uint64_t)count * (uint64_t)size;
}

/* Non-blocking requests in flight: the handle, the archive's request id, and for a
 * receive its communicator (source, tag and size come from the completing status). */
struct request {
	MPI_Request handle;
	uint64_t id;
	int recv;
	MPI_Comm comm;
};
static struct request *reqs;
static int nreqs, capreqs;

static void add_request(MPI_Request h, uint64_t id, int recv, MPI_Comm comm)
{
	if (nreqs == capreqs) {
		capreqs = capreqs ? 2 * capreqs : 64;
		reqs = realloc(reqs, sizeof(struct request) * capreqs);
	}
	reqs[nreqs++] = (struct request){h, id, recv, comm};
}

/* complete records the completion of the request that was handle h, with its status. */
static void complete(MPI_Request h, MPI_Status *st)
{
	if (h == MPI_REQUEST_NULL)
		return;
	for (int i = nreqs - 1; i >= 0; i--) {
		if (reqs[i].handle != h)
			continue;
		struct request r = reqs[i];
		reqs[i] = reqs[--nreqs];
		int cancelled = 0;
		PMPI_Test_cancelled(st, &cancelled);
		if (cancelled) {
			OTF2_EvtWriter_MpiRequestCancelled(evt, NULL, now(), r.id);
		} else if (r.recv) {
			int n = 0;
			PMPI_Get_count(st, MPI_BYTE, &n);
			OTF2_EvtWriter_MpiIrecv(evt, NULL, now(), (uint32_t)st->MPI_SOURCE, comm_id(r.comm), (uint32_t)st->MPI_TAG, (uint64_t)n, r.id);
			c_recvs++;
			c_recv_bytes += (uint64_t)n;
		} else {
			OTF2_EvtWriter_MpiIsendComplete(evt, NULL, now(), r.id);
		}
		nevents++;
		return;
	}
}

static void open_archive(void)
{
	PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
	/* TWINTORUS_OTF2_WINDOW=FROM:TO records only between the FROM-th world barrier's
	 * return and the TO-th's call (TO empty: to the end), to cut one phase of a program
	 * whose phases are separated by MPI_Barrier(MPI_COMM_WORLD), as HPCC's are. */
	const char *win = getenv("TWINTORUS_OTF2_WINDOW");
	if (win && *win) {
		char *end;
		window_from = strtol(win, &end, 10);
		window_to = *end == ':' && end[1] ? strtol(end + 1, NULL, 10) : -1;
		recording = window_from == 0;
	}
	const char *bl = getenv("TWINTORUS_OTF2_LOG_BARRIERS");
	if (bl && *bl) {
		log_barriers = 1;
		snprintf(barrier_log, sizeof barrier_log, "%s", bl);
	}
	const char *d = getenv("TWINTORUS_OTF2_DIR");
	snprintf(outdir, sizeof outdir, "%s", d && *d ? d : "twintorus-otf2");
	if (world_rank == 0)
		mkdir(outdir, 0777);
	in_tool++;
	PMPI_Barrier(MPI_COMM_WORLD);
	archive = OTF2_Archive_Open(outdir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!archive)
		fail("cannot open the OTF2 archive (does it exist already?)");
	OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL);
	OTF2_MPI_Archive_SetCollectiveCallbacks(archive, MPI_COMM_WORLD, MPI_COMM_NULL);
	OTF2_Archive_OpenEvtFiles(archive);
	evt = OTF2_Archive_GetEvtWriter(archive, (OTF2_LocationRef)world_rank);
	in_tool--;
	add_comm(MPI_COMM_WORLD, 0);
	active = 1;
}

int MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS)
		open_archive();
	return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS)
		open_archive();
	return rc;
}

#define ON (active && !in_tool && recording)
#define TRACKING (active && !in_tool) /* communicators are tracked outside the window too */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* finish_definitions gathers every process's communicators at rank 0, which numbers
 * them densely in the order of their ids (MPI_COMM_WORLD, id 0, first) and tells every
 * process; each process writes the mapping of the ids in its events to those numbers
 * (OTF2's mapping table, which readers apply), and rank 0 writes the global
 * definitions. */
static void finish_definitions(uint64_t t0, uint64_t t1)
{
	/* Each process's communicators as words: id, size, members... */
	int words = 0;
	for (int i = 0; i < ncomms; i++)
		words += 2 + comms[i].size;
	uint32_t *mine = malloc(sizeof(uint32_t) * (words + 1)), *p = mine;
	for (int i = 0; i < ncomms; i++) {
		*p++ = comms[i].id;
		*p++ = (uint32_t)comms[i].size;
		for (int j = 0; j < comms[i].size; j++)
			*p++ = (uint32_t)comms[i].members[j];
	}
	int *counts = NULL, *displs = NULL;
	uint64_t *events = NULL;
	uint32_t *all = NULL;
	if (world_rank == 0) {
		counts = malloc(sizeof(int) * world_size);
		displs = malloc(sizeof(int) * world_size);
		events = malloc(sizeof(uint64_t) * world_size);
	}
	PMPI_Gather(&words, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	PMPI_Gather(&nevents, 1, MPI_UINT64_T, events, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	int total = 0;
	if (world_rank == 0) {
		for (int i = 0; i < world_size; i++) {
			displs[i] = total;
			total += counts[i];
		}
		all = malloc(sizeof(uint32_t) * (total + 1));
	}
	PMPI_Gatherv(mine, words, MPI_UINT32_T, all, counts, displs, MPI_UINT32_T, 0, MPI_COMM_WORLD);
	free(mine);

	/* The distinct ids, sorted; offs[k] is where comm ids[k] is in all. */
	int nids = 0;
	uint32_t *ids = NULL;
	int *offs = NULL;
	if (world_rank == 0) {
		ids = malloc(sizeof(uint32_t) * (total + 1));
		for (int at = 0; at < total; at += 2 + (int)all[at + 1])
			ids[nids++] = all[at];
		qsort(ids, nids, sizeof(uint32_t), cmp_u32);
		int k = 0;
		for (int i = 0; i < nids; i++)
			if (i == 0 || ids[i] != ids[k - 1])
				ids[k++] = ids[i];
		nids = k;
		offs = malloc(sizeof(int) * (nids + 1));
		for (int i = 0; i < nids; i++)
			offs[i] = -1;
		for (int at = 0; at < total; at += 2 + (int)all[at + 1]) {
			uint32_t *f = bsearch(&all[at], ids, nids, sizeof(uint32_t), cmp_u32);
			if (offs[f - ids] < 0)
				offs[f - ids] = at;
		}
	}
	PMPI_Bcast(&nids, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (world_rank != 0)
		ids = malloc(sizeof(uint32_t) * (nids + 1));
	PMPI_Bcast(ids, nids, MPI_UINT32_T, 0, MPI_COMM_WORLD);

	OTF2_Archive_OpenDefFiles(archive);
	OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(archive, (OTF2_LocationRef)world_rank);
	OTF2_IdMap *map = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, (uint64_t)ncomms + 1);
	for (int i = 0; i < ncomms; i++) {
		uint32_t *f = bsearch(&comms[i].id, ids, nids, sizeof(uint32_t), cmp_u32);
		if (f)
			OTF2_IdMap_AddIdPair(map, comms[i].id, (uint64_t)(f - ids));
	}
	OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_COMM, map);
	OTF2_IdMap_Free(map);
	OTF2_Archive_CloseDefWriter(archive, dw);
	OTF2_Archive_CloseDefFiles(archive);
	if (world_rank != 0) {
		free(ids);
		return;
	}

	OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(archive);
	OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000, t0, t1 - t0, OTF2_UNDEFINED_TIMESTAMP);
	uint32_t s = 0; /* string ids */
	OTF2_GlobalDefWriter_WriteString(w, s++, "");          /* 0 */
	OTF2_GlobalDefWriter_WriteString(w, s++, "machine");   /* 1 */
	OTF2_GlobalDefWriter_WriteString(w, s++, "node");      /* 2 */
	OTF2_GlobalDefWriter_WriteString(w, s++, "MPI");       /* 3 */
	OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, 1, 2, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	uint32_t regions = s;
	for (int r = 0; r < R_COUNT; r++)
		OTF2_GlobalDefWriter_WriteString(w, s++, region_names[r]);
	for (int r = 0; r < R_COUNT; r++) {
		OTF2_RegionRole role = r >= R_BARRIER && r <= R_EXSCAN ? OTF2_REGION_ROLE_COLL_ALL2ALL : OTF2_REGION_ROLE_POINT2POINT;
		if (r >= R_COMM_SPLIT)
			role = OTF2_REGION_ROLE_FUNCTION;
		OTF2_GlobalDefWriter_WriteRegion(w, r, regions + r, regions + r, 0, role, OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, 0, 0, 0);
	}
	uint64_t *locs = malloc(sizeof(uint64_t) * world_size);
	char name[64];
	uint32_t rank_names = s;
	for (int i = 0; i < world_size; i++) {
		snprintf(name, sizeof name, "rank %d", i);
		OTF2_GlobalDefWriter_WriteString(w, s++, name);
	}
	for (int i = 0; i < world_size; i++)
		OTF2_GlobalDefWriter_WriteLocationGroup(w, i, rank_names + i, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
	for (int i = 0; i < world_size; i++) {
		OTF2_GlobalDefWriter_WriteLocation(w, i, rank_names + i, OTF2_LOCATION_TYPE_CPU_THREAD, events[i], i);
		locs[i] = (uint64_t)i;
	}
	uint32_t comm_names = s;
	for (int k = 0; k < nids; k++) {
		if (ids[k] == 0)
			snprintf(name, sizeof name, "MPI_COMM_WORLD");
		else
			snprintf(name, sizeof name, "comm %u", ids[k]);
		OTF2_GlobalDefWriter_WriteString(w, s++, name);
	}
	/* Group 0: the MPI locations, rank i at index i; group k+1: communicator k's
	 * members, as indices into group 0 (their world ranks). */
	OTF2_GlobalDefWriter_WriteGroup(w, 0, 3, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, world_size, locs);
	uint64_t *members = malloc(sizeof(uint64_t) * world_size);
	for (int k = 0; k < nids; k++) {
		int at = offs[k];
		uint32_t size = all[at + 1];
		for (uint32_t j = 0; j < size; j++)
			members[j] = all[at + 2 + j];
		OTF2_GlobalDefWriter_WriteGroup(w, k + 1, comm_names + k, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, size, members);
	}
	for (int k = 0; k < nids; k++)
		OTF2_GlobalDefWriter_WriteComm(w, k, comm_names + k, k + 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
	OTF2_Archive_CloseGlobalDefWriter(archive, w);
	free(members);
	free(locs);
	free(ids);
	free(offs);
	free(all);
	free(counts);
	free(displs);
	free(events);
}

static uint64_t otf2rec_start; /* when the library was loaded */

int MPI_Finalize(void)
{
	if (!active)
		return PMPI_Finalize();
	active = 0;
	in_tool++;
	uint64_t t1 = now(), t0 = 0, tmax = 0;
	OTF2_Archive_CloseEvtWriter(archive, evt);
	OTF2_Archive_CloseEvtFiles(archive);

	/* The counts, summed over the ranks, independent of OTF2. */
	uint64_t mine[7] = {c_sends, c_send_bytes, c_recvs, c_recv_bytes, c_colls, c_coll_sent, c_coll_recvd}, sum[7];
	PMPI_Reduce(mine, sum, 7, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	PMPI_Reduce(&t1, &tmax, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
	PMPI_Reduce(&otf2rec_start, &t0, 1, MPI_UINT64_T, MPI_MIN, 0, MPI_COMM_WORLD);
	finish_definitions(t0, tmax);
	OTF2_Archive_Close(archive);
	if (world_rank == 0) {
		char path[4200];
		snprintf(path, sizeof path, "%s/summary.txt", outdir);
		FILE *f = fopen(path, "w");
		if (f) {
			fprintf(f, "ranks %d\np2p_sends %llu\np2p_send_bytes %llu\np2p_recvs %llu\np2p_recv_bytes %llu\ncollectives %llu\ncollective_bytes_sent %llu\ncollective_bytes_received %llu\n",
				world_size, (unsigned long long)sum[0], (unsigned long long)sum[1], (unsigned long long)sum[2],
				(unsigned long long)sum[3], (unsigned long long)sum[4], (unsigned long long)sum[5], (unsigned long long)sum[6]);
			fclose(f);
		}
	}
	in_tool--;
	return PMPI_Finalize();
}

__attribute__((constructor)) static void otf2rec_init(void) { otf2rec_start = now(); }

/* Point-to-point. */

static void record_send(int r, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
	if (dest == MPI_PROC_NULL)
		return;
	uint64_t n = type_bytes(count, t);
	OTF2_EvtWriter_MpiSend(evt, NULL, now(), (uint32_t)dest, comm_id(comm), (uint32_t)tag, n);
	nevents++;
	c_sends++;
	c_send_bytes += n;
	(void)r;
}

static void record_recv(MPI_Status *st, MPI_Comm comm)
{
	if (st->MPI_SOURCE == MPI_PROC_NULL)
		return;
	int n = 0;
	PMPI_Get_count(st, MPI_BYTE, &n);
	OTF2_EvtWriter_MpiRecv(evt, NULL, now(), (uint32_t)st->MPI_SOURCE, comm_id(comm), (uint32_t)st->MPI_TAG, (uint64_t)n);
	nevents++;
	c_recvs++;
	c_recv_bytes += (uint64_t)n;
}

#define BLOCKING_SEND(NAME, PNAME, R)                                                              \
	int NAME(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)         \
	{                                                                                          \
		if (!ON)                                                                           \
			return PNAME(buf, count, t, dest, tag, comm);                              \
		enter(R);                                                                          \
		record_send(R, count, t, dest, tag, comm);                                         \
		int rc = PNAME(buf, count, t, dest, tag, comm);                                    \
		leave(R);                                                                          \
		return rc;                                                                         \
	}
BLOCKING_SEND(MPI_Send, PMPI_Send, R_SEND)
BLOCKING_SEND(MPI_Ssend, PMPI_Ssend, R_SSEND)
BLOCKING_SEND(MPI_Bsend, PMPI_Bsend, R_BSEND)
BLOCKING_SEND(MPI_Rsend, PMPI_Rsend, R_RSEND)

#define NONBLOCKING_SEND(NAME, PNAME, R)                                                              \
	int NAME(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request *req) \
	{                                                                                             \
		if (!ON)                                                                              \
			return PNAME(buf, count, t, dest, tag, comm, req);                            \
		enter(R);                                                                             \
		int rc = PNAME(buf, count, t, dest, tag, comm, req);                                  \
		if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL) {                                     \
			uint64_t n = type_bytes(count, t), id = next_request++;                       \
			OTF2_EvtWriter_MpiIsend(evt, NULL, now(), (uint32_t)dest, comm_id(comm), (uint32_t)tag, n, id); \
			nevents++;                                                                    \
			c_sends++;                                                                    \
			c_send_bytes += n;                                                            \
			add_request(*req, id, 0, comm);                                               \
		}                                                                                     \
		leave(R);                                                                             \
		return rc;                                                                            \
	}
NONBLOCKING_SEND(MPI_Isend, PMPI_Isend, R_ISEND)
NONBLOCKING_SEND(MPI_Issend, PMPI_Issend, R_ISSEND)
NONBLOCKING_SEND(MPI_Irsend, PMPI_Irsend, R_IRSEND)
NONBLOCKING_SEND(MPI_Ibsend, PMPI_Ibsend, R_IBSEND)

int MPI_Recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *status)
{
	if (!ON)
		return PMPI_Recv(buf, count, t, src, tag, comm, status);
	MPI_Status mine;
	if (status == MPI_STATUS_IGNORE)
		status = &mine;
	enter(R_RECV);
	int rc = PMPI_Recv(buf, count, t, src, tag, comm, status);
	if (rc == MPI_SUCCESS)
		record_recv(status, comm);
	leave(R_RECV);
	return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *req)
{
	if (!ON)
		return PMPI_Irecv(buf, count, t, src, tag, comm, req);
	enter(R_IRECV);
	int rc = PMPI_Irecv(buf, count, t, src, tag, comm, req);
	if (rc == MPI_SUCCESS && src != MPI_PROC_NULL) {
		uint64_t id = next_request++;
		OTF2_EvtWriter_MpiIrecvRequest(evt, NULL, now(), id);
		nevents++;
		add_request(*req, id, 1, comm);
	}
	leave(R_IRECV);
	return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf, int rcount,
		 MPI_Datatype rtype, int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
	if (!ON)
		return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm, status);
	MPI_Status mine;
	if (status == MPI_STATUS_IGNORE)
		status = &mine;
	enter(R_SENDRECV);
	record_send(R_SENDRECV, scount, stype, dest, stag, comm);
	int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm, status);
	if (rc == MPI_SUCCESS)
		record_recv(status, comm);
	leave(R_SENDRECV);
	return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype t, int dest, int stag, int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
	if (!ON)
		return PMPI_Sendrecv_replace(buf, count, t, dest, stag, src, rtag, comm, status);
	MPI_Status mine;
	if (status == MPI_STATUS_IGNORE)
		status = &mine;
	enter(R_SENDRECV_REPLACE);
	record_send(R_SENDRECV_REPLACE, count, t, dest, stag, comm);
	int rc = PMPI_Sendrecv_replace(buf, count, t, dest, stag, src, rtag, comm, status);
	if (rc == MPI_SUCCESS)
		record_recv(status, comm);
	leave(R_SENDRECV_REPLACE);
	return rc;
}

/* Completions: the handles are saved before the call, which sets completed ones to
 * MPI_REQUEST_NULL (persistent requests, not recorded, stay as they are). */

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	if (!ON)
		return PMPI_Wait(req, status);
	MPI_Status mine;
	if (status == MPI_STATUS_IGNORE)
		status = &mine;
	MPI_Request h = *req;
	enter(R_WAIT);
	int rc = PMPI_Wait(req, status);
	if (rc == MPI_SUCCESS)
		complete(h, status);
	leave(R_WAIT);
	return rc;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	if (!ON)
		return PMPI_Test(req, flag, status);
	MPI_Status mine;
	if (status == MPI_STATUS_IGNORE)
		status = &mine;
	MPI_Request h = *req;
	enter(R_TEST);
	int rc = PMPI_Test(req, flag, status);
	if (rc == MPI_SUCCESS && *flag)
		complete(h, status);
	leave(R_TEST);
	return rc;
}

/* multi runs one of the array completions: call it with saved handles and a status
 * array of our own when the caller ignores them, then record every completed one. */
static int multi(int r, int n, MPI_Request *reqs_in, MPI_Status *statuses, int (*call)(MPI_Request *, MPI_Status *, int *, int *, void *), void *arg, int *outcount, int *indices, int *index, int *flag)
{
	MPI_Request *saved = malloc(sizeof(MPI_Request) * (n > 0 ? n : 1));
	memcpy(saved, reqs_in, sizeof(MPI_Request) * (n > 0 ? n : 0));
	MPI_Status *st = statuses;
	MPI_Status *own = NULL;
	if (st == MPI_STATUSES_IGNORE || st == MPI_STATUS_IGNORE)
		st = own = malloc(sizeof(MPI_Status) * (n > 0 ? n : 1));
	enter(r);
	int rc = call(reqs_in, st, outcount, indices, arg);
	(void)index;
	(void)flag;
	if (rc == MPI_SUCCESS) {
		if (indices) { /* waitsome, testsome, or any (one index) */
			for (int i = 0; i < *outcount; i++)
				if (indices[i] >= 0 && indices[i] < n)
					complete(saved[indices[i]], &st[i]);
		} else if (outcount && *outcount) { /* waitall, testall (flag) */
			for (int i = 0; i < n; i++)
				complete(saved[i], &st[i]);
		}
	}
	leave(r);
	free(saved);
	free(own);
	return rc;
}

struct multi_arg { int n; int *flag; int *index; };
static int call_waitall(MPI_Request *q, MPI_Status *st, int *out, int *idx, void *a)
{
	(void)idx;
	int rc = PMPI_Waitall(((struct multi_arg *)a)->n, q, st);
	*out = 1;
	return rc;
}
static int call_testall(MPI_Request *q, MPI_Status *st, int *out, int *idx, void *a)
{
	(void)idx;
	struct multi_arg *m = a;
	int rc = PMPI_Testall(m->n, q, m->flag, st);
	*out = *m->flag;
	return rc;
}
static int call_waitany(MPI_Request *q, MPI_Status *st, int *out, int *idx, void *a)
{
	struct multi_arg *m = a;
	int rc = PMPI_Waitany(m->n, q, m->index, st);
	*idx = *m->index;
	*out = *m->index == MPI_UNDEFINED ? 0 : 1;
	return rc;
}
static int call_testany(MPI_Request *q, MPI_Status *st, int *out, int *idx, void *a)
{
	struct multi_arg *m = a;
	int rc = PMPI_Testany(m->n, q, m->index, m->flag, st);
	*idx = *m->index;
	*out = (*m->flag && *m->index != MPI_UNDEFINED) ? 1 : 0;
	return rc;
}
static int call_waitsome(MPI_Request *q, MPI_Status *st, int *out, int *idx, void *a)
{
	int rc = PMPI_Waitsome(((struct multi_arg *)a)->n, q, out, idx, st);
	if (*out == MPI_UNDEFINED)
		*out = 0;
	return rc;
}
static int call_testsome(MPI_Request *q, MPI_Status *st, int *out, int *idx, void *a)
{
	int rc = PMPI_Testsome(((struct multi_arg *)a)->n, q, out, idx, st);
	if (*out == MPI_UNDEFINED)
		*out = 0;
	return rc;
}

int MPI_Waitall(int n, MPI_Request *q, MPI_Status *st)
{
	if (!ON)
		return PMPI_Waitall(n, q, st);
	struct multi_arg a = {n, NULL, NULL};
	int out = 0;
	return multi(R_WAITALL, n, q, st, call_waitall, &a, &out, NULL, NULL, NULL);
}

int MPI_Testall(int n, MPI_Request *q, int *flag, MPI_Status *st)
{
	if (!ON)
		return PMPI_Testall(n, q, flag, st);
	struct multi_arg a = {n, flag, NULL};
	int out = 0;
	return multi(R_TESTALL, n, q, st, call_testall, &a, &out, NULL, NULL, NULL);
}

int MPI_Waitany(int n, MPI_Request *q, int *index, MPI_Status *status)
{
	if (!ON)
		return PMPI_Waitany(n, q, index, status);
	struct multi_arg a = {n, NULL, index};
	int out = 0, idx = 0;
	/* One status: multi's array of n is only read at [0]. */
	MPI_Status one;
	MPI_Status *st = status == MPI_STATUS_IGNORE ? &one : status;
	int rc = multi(R_WAITANY, n, q, st, call_waitany, &a, &out, &idx, NULL, NULL);
	return rc;
}

int MPI_Testany(int n, MPI_Request *q, int *index, int *flag, MPI_Status *status)
{
	if (!ON)
		return PMPI_Testany(n, q, index, flag, status);
	struct multi_arg a = {n, flag, index};
	int out = 0, idx = 0;
	MPI_Status one;
	MPI_Status *st = status == MPI_STATUS_IGNORE ? &one : status;
	return multi(R_TESTANY, n, q, st, call_testany, &a, &out, &idx, NULL, NULL);
}

int MPI_Waitsome(int n, MPI_Request *q, int *outcount, int *indices, MPI_Status *st)
{
	if (!ON)
		return PMPI_Waitsome(n, q, outcount, indices, st);
	struct multi_arg a = {n, NULL, NULL};
	int rc = multi(R_WAITSOME, n, q, st, call_waitsome, &a, outcount, indices, NULL, NULL);
	return rc;
}

int MPI_Testsome(int n, MPI_Request *q, int *outcount, int *indices, MPI_Status *st)
{
	if (!ON)
		return PMPI_Testsome(n, q, outcount, indices, st);
	struct multi_arg a = {n, NULL, NULL};
	return multi(R_TESTSOME, n, q, st, call_testsome, &a, outcount, indices, NULL, NULL);
}

/* Collectives: Begin, the call, End with this rank's bytes. */

static void coll_end(OTF2_CollectiveOp op, MPI_Comm comm, int root, uint64_t sent, uint64_t recvd)
{
	OTF2_EvtWriter_MpiCollectiveEnd(evt, NULL, now(), op, comm_id(comm), root < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)root, sent, recvd);
	nevents++;
	c_colls++;
	c_coll_sent += sent;
	c_coll_recvd += recvd;
}
static void coll_begin(int r)
{
	enter(r);
	OTF2_EvtWriter_MpiCollectiveBegin(evt, NULL, now());
	nevents++;
}
static int comm_rank(MPI_Comm c)
{
	int r = 0;
	PMPI_Comm_rank(c, &r);
	return r;
}
static int comm_size(MPI_Comm c)
{
	int r = 0;
	PMPI_Comm_size(c, &r);
	return r;
}
static uint64_t sum_counts(const int *counts, MPI_Datatype t, int n)
{
	uint64_t s = 0;
	for (int i = 0; i < n; i++)
		s += type_bytes(counts[i], t);
	return s;
}

int MPI_Barrier(MPI_Comm comm)
{
	int world = TRACKING && comm == MPI_COMM_WORLD;
	if (world) {
		world_barriers++;
		if (window_to >= 0 && world_barriers == window_to)
			recording = 0;
		if (log_barriers && world_rank == 0) {
			FILE *f = fopen(barrier_log, "a");
			if (f) {
				fprintf(f, "otf2rec: world barrier %ld\n", world_barriers);
				fclose(f);
			}
		}
	}
	if (!ON) {
		int rc = PMPI_Barrier(comm);
		if (world && world_barriers == window_from)
			recording = 1;
		return rc;
	}
	coll_begin(R_BARRIER);
	int rc = PMPI_Barrier(comm);
	coll_end(OTF2_COLLECTIVE_OP_BARRIER, comm, -1, 0, 0);
	leave(R_BARRIER);
	return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Bcast(buf, count, t, root, comm);
	coll_begin(R_BCAST);
	int rc = PMPI_Bcast(buf, count, t, root, comm);
	uint64_t n = type_bytes(count, t);
	int me = comm_rank(comm) == root;
	coll_end(OTF2_COLLECTIVE_OP_BCAST, comm, root, me ? n : 0, me ? 0 : n);
	leave(R_BCAST);
	return rc;
}

int MPI_Reduce(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Reduce(s, r, count, t, op, root, comm);
	coll_begin(R_REDUCE);
	int rc = PMPI_Reduce(s, r, count, t, op, root, comm);
	uint64_t n = type_bytes(count, t);
	int me = comm_rank(comm) == root;
	coll_end(OTF2_COLLECTIVE_OP_REDUCE, comm, root, n, me ? n : 0);
	leave(R_REDUCE);
	return rc;
}

int MPI_Allreduce(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Allreduce(s, r, count, t, op, comm);
	coll_begin(R_ALLREDUCE);
	int rc = PMPI_Allreduce(s, r, count, t, op, comm);
	uint64_t n = type_bytes(count, t);
	coll_end(OTF2_COLLECTIVE_OP_ALLREDUCE, comm, -1, n, n);
	leave(R_ALLREDUCE);
	return rc;
}

int MPI_Gather(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, int root, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Gather(s, sc, st, r, rc_, rt, root, comm);
	coll_begin(R_GATHER);
	int rc = PMPI_Gather(s, sc, st, r, rc_, rt, root, comm);
	int me = comm_rank(comm) == root;
	uint64_t n = s == MPI_IN_PLACE ? type_bytes(rc_, rt) : type_bytes(sc, st);
	coll_end(OTF2_COLLECTIVE_OP_GATHER, comm, root, n, me ? type_bytes(rc_, rt) * (uint64_t)comm_size(comm) : 0);
	leave(R_GATHER);
	return rc;
}

int MPI_Gatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rcs, const int *displs, MPI_Datatype rt, int root, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Gatherv(s, sc, st, r, rcs, displs, rt, root, comm);
	coll_begin(R_GATHERV);
	int rc = PMPI_Gatherv(s, sc, st, r, rcs, displs, rt, root, comm);
	int me = comm_rank(comm) == root;
	uint64_t n = s == MPI_IN_PLACE ? type_bytes(rcs[root], rt) : type_bytes(sc, st);
	coll_end(OTF2_COLLECTIVE_OP_GATHERV, comm, root, n, me ? sum_counts(rcs, rt, comm_size(comm)) : 0);
	leave(R_GATHERV);
	return rc;
}

int MPI_Scatter(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, int root, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Scatter(s, sc, st, r, rc_, rt, root, comm);
	coll_begin(R_SCATTER);
	int rc = PMPI_Scatter(s, sc, st, r, rc_, rt, root, comm);
	int me = comm_rank(comm) == root;
	uint64_t n = r == MPI_IN_PLACE ? type_bytes(sc, st) : type_bytes(rc_, rt);
	coll_end(OTF2_COLLECTIVE_OP_SCATTER, comm, root, me ? type_bytes(sc, st) * (uint64_t)comm_size(comm) : 0, n);
	leave(R_SCATTER);
	return rc;
}

int MPI_Scatterv(const void *s, const int *scs, const int *displs, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, int root, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Scatterv(s, scs, displs, st, r, rc_, rt, root, comm);
	coll_begin(R_SCATTERV);
	int rc = PMPI_Scatterv(s, scs, displs, st, r, rc_, rt, root, comm);
	int me = comm_rank(comm) == root;
	uint64_t n = r == MPI_IN_PLACE ? type_bytes(scs[root], st) : type_bytes(rc_, rt);
	coll_end(OTF2_COLLECTIVE_OP_SCATTERV, comm, root, me ? sum_counts(scs, st, comm_size(comm)) : 0, n);
	leave(R_SCATTERV);
	return rc;
}

int MPI_Allgather(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Allgather(s, sc, st, r, rc_, rt, comm);
	coll_begin(R_ALLGATHER);
	int rc = PMPI_Allgather(s, sc, st, r, rc_, rt, comm);
	uint64_t blk = type_bytes(rc_, rt);
	coll_end(OTF2_COLLECTIVE_OP_ALLGATHER, comm, -1, s == MPI_IN_PLACE ? blk : type_bytes(sc, st), blk * (uint64_t)comm_size(comm));
	leave(R_ALLGATHER);
	return rc;
}

int MPI_Allgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rcs, const int *displs, MPI_Datatype rt, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Allgatherv(s, sc, st, r, rcs, displs, rt, comm);
	coll_begin(R_ALLGATHERV);
	int rc = PMPI_Allgatherv(s, sc, st, r, rcs, displs, rt, comm);
	uint64_t n = s == MPI_IN_PLACE ? type_bytes(rcs[comm_rank(comm)], rt) : type_bytes(sc, st);
	coll_end(OTF2_COLLECTIVE_OP_ALLGATHERV, comm, -1, n, sum_counts(rcs, rt, comm_size(comm)));
	leave(R_ALLGATHERV);
	return rc;
}

int MPI_Alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Alltoall(s, sc, st, r, rc_, rt, comm);
	coll_begin(R_ALLTOALL);
	int rc = PMPI_Alltoall(s, sc, st, r, rc_, rt, comm);
	uint64_t p = (uint64_t)comm_size(comm), rb = type_bytes(rc_, rt) * p;
	coll_end(OTF2_COLLECTIVE_OP_ALLTOALL, comm, -1, s == MPI_IN_PLACE ? rb : type_bytes(sc, st) * p, rb);
	leave(R_ALLTOALL);
	return rc;
}

int MPI_Alltoallv(const void *s, const int *scs, const int *sd, MPI_Datatype st, void *r, const int *rcs, const int *rd, MPI_Datatype rt, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Alltoallv(s, scs, sd, st, r, rcs, rd, rt, comm);
	coll_begin(R_ALLTOALLV);
	int rc = PMPI_Alltoallv(s, scs, sd, st, r, rcs, rd, rt, comm);
	int p = comm_size(comm);
	uint64_t rb = sum_counts(rcs, rt, p);
	coll_end(OTF2_COLLECTIVE_OP_ALLTOALLV, comm, -1, s == MPI_IN_PLACE ? rb : sum_counts(scs, st, p), rb);
	leave(R_ALLTOALLV);
	return rc;
}

int MPI_Reduce_scatter(const void *s, void *r, const int *rcs, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Reduce_scatter(s, r, rcs, t, op, comm);
	coll_begin(R_REDUCE_SCATTER);
	int rc = PMPI_Reduce_scatter(s, r, rcs, t, op, comm);
	coll_end(OTF2_COLLECTIVE_OP_REDUCE_SCATTER, comm, -1, sum_counts(rcs, t, comm_size(comm)), type_bytes(rcs[comm_rank(comm)], t));
	leave(R_REDUCE_SCATTER);
	return rc;
}

int MPI_Scan(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Scan(s, r, count, t, op, comm);
	coll_begin(R_SCAN);
	int rc = PMPI_Scan(s, r, count, t, op, comm);
	uint64_t n = type_bytes(count, t);
	coll_end(OTF2_COLLECTIVE_OP_SCAN, comm, -1, n, n);
	leave(R_SCAN);
	return rc;
}

int MPI_Exscan(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
	if (!ON)
		return PMPI_Exscan(s, r, count, t, op, comm);
	coll_begin(R_EXSCAN);
	int rc = PMPI_Exscan(s, r, count, t, op, comm);
	uint64_t n = type_bytes(count, t);
	coll_end(OTF2_COLLECTIVE_OP_EXSCAN, comm, -1, n, n);
	leave(R_EXSCAN);
	return rc;
}

/* Communicator creation: the new communicator is named and defined. */

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *out)
{
	if (!TRACKING)
		return PMPI_Comm_split(comm, color, key, out);
	if (recording)
		enter(R_COMM_SPLIT);
	int rc = PMPI_Comm_split(comm, color, key, out);
	if (rc == MPI_SUCCESS)
		add_comm(*out, UINT32_MAX);
	if (recording)
		leave(R_COMM_SPLIT);
	return rc;
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *out)
{
	if (!TRACKING)
		return PMPI_Comm_split_type(comm, type, key, info, out);
	if (recording)
		enter(R_COMM_SPLIT_TYPE);
	int rc = PMPI_Comm_split_type(comm, type, key, info, out);
	if (rc == MPI_SUCCESS)
		add_comm(*out, UINT32_MAX);
	if (recording)
		leave(R_COMM_SPLIT_TYPE);
	return rc;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *out)
{
	if (!TRACKING)
		return PMPI_Comm_dup(comm, out);
	if (recording)
		enter(R_COMM_DUP);
	int rc = PMPI_Comm_dup(comm, out);
	if (rc == MPI_SUCCESS)
		add_comm(*out, UINT32_MAX);
	if (recording)
		leave(R_COMM_DUP);
	return rc;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group g, MPI_Comm *out)
{
	if (!TRACKING)
		return PMPI_Comm_create(comm, g, out);
	if (recording)
		enter(R_COMM_CREATE);
	int rc = PMPI_Comm_create(comm, g, out);
	if (rc == MPI_SUCCESS)
		add_comm(*out, UINT32_MAX);
	if (recording)
		leave(R_COMM_CREATE);
	return rc;
}

int MPI_Cart_create(MPI_Comm comm, int nd, const int *dims, const int *periods, int reorder, MPI_Comm *out)
{
	if (!TRACKING)
		return PMPI_Cart_create(comm, nd, dims, periods, reorder, out);
	if (recording)
		enter(R_CART_CREATE);
	int rc = PMPI_Cart_create(comm, nd, dims, periods, reorder, out);
	if (rc == MPI_SUCCESS)
		add_comm(*out, UINT32_MAX);
	if (recording)
		leave(R_CART_CREATE);
	return rc;
}

int MPI_Cart_sub(MPI_Comm comm, const int *remain, MPI_Comm *out)
{
	if (!TRACKING)
		return PMPI_Cart_sub(comm, remain, out);
	if (recording)
		enter(R_CART_SUB);
	int rc = PMPI_Cart_sub(comm, remain, out);
	if (rc == MPI_SUCCESS)
		add_comm(*out, UINT32_MAX);
	if (recording)
		leave(R_CART_SUB);
	return rc;
}

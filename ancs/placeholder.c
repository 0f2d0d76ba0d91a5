typedef int ancsdb_placeholder_ancs;

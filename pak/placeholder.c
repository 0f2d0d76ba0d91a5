typedef int ancsdb_placeholder_pak;

//===- dlc.cpp - the dlc compiler driver ----------------------------------===//
#include "tools/driver/Driver.h"

int main(int argc, char **argv) { return dlc::driverMain(argc, argv); }

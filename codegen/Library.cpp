//===- Library.cpp - package generated objects as libraries ---------------===//
#include "codegen/Library.h"

#include "llvm/Object/Archive.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

using namespace llvm;

Error dlc::writeStaticLibrary(StringRef archivePath, StringRef objectName,
                              StringRef object, StringRef runtimeArchive) {
  std::vector<NewArchiveMember> members;
  members.emplace_back(MemoryBufferRef(object, objectName));
  ErrorOr<std::unique_ptr<MemoryBuffer>> rt =
      MemoryBuffer::getFile(runtimeArchive);
  if (!rt)
    return createStringError(rt.getError(), "cannot read the dlc runtime '" +
                                                runtimeArchive +
                                                "': " + rt.getError().message());
  Expected<std::unique_ptr<object::Archive>> archive =
      object::Archive::create((*rt)->getMemBufferRef());
  if (!archive)
    return archive.takeError();
  Error err = Error::success();
  for (const object::Archive::Child &child : (*archive)->children(err)) {
    Expected<NewArchiveMember> member =
        NewArchiveMember::getOldMember(child, /*Deterministic=*/true);
    if (!member)
      return member.takeError();
    members.push_back(std::move(*member));
  }
  if (err)
    return err;
  return writeArchive(archivePath, members, SymtabWritingMode::NormalSymtab,
                      object::Archive::K_GNU, /*Deterministic=*/true,
                      /*Thin=*/false);
}

Error dlc::linkSharedLibrary(StringRef soPath, StringRef objectPath,
                             StringRef runtimeArchive, bool cuda) {
  const char *ccEnv = getenv("CC");
  std::string ccName = ccEnv && *ccEnv ? ccEnv : "cc";
  ErrorOr<std::string> cc = sys::findProgramByName(ccName);
  if (!cc)
    return createStringError(inconvertibleErrorCode(),
                             "--shared needs a C compiler driver to link ('" +
                                 ccName + "' not found; set CC)");
  SmallVector<StringRef> args{*cc,          "-shared", "-o",
                              soPath,       objectPath, "-Wl,--whole-archive",
                              runtimeArchive, "-Wl,--no-whole-archive"};
  args.append({cuda ? "-ldl" : "-lomp", "-lm"});
  std::string errMsg;
  int rc = sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0, &errMsg);
  if (rc != 0)
    return createStringError(inconvertibleErrorCode(),
                             "linking " + soPath + " failed: " +
                                 (errMsg.empty() ? "exit " + std::to_string(rc)
                                                 : errMsg));
  return Error::success();
}
